# GridArena's runner for a Python function-format code entry on the command line (crates/cli/src/code).
# One process per side per game, run as `python3 -c THIS` in the game's folder. It speaks one JSON line
# in, one JSON line out on its own stdin and stdout; the student's print() and anything else written to
# fd 1 goes to stderr, which gridarena keeps as what the code printed.
#   in:  {"seed": "123", "main": "main.py"}   then one request object per move
#   out: {"ok": true} after the import, then {"ok": true, "body": "<move JSON>"} per move,
#        or {"ok": false, "code": "<CodeFailure code>", "message": "..."}
# The failures and their messages are the page's (web/code-runtime.mjs).
import sys, os, io, json, random, traceback, types, reprlib

GAME = os.getcwd()
PROTO_IN = os.fdopen(os.dup(0), 'r', encoding='utf-8', newline='\n')
PROTO_OUT = os.fdopen(os.dup(1), 'w', encoding='utf-8', newline='\n')
_null = os.open(os.devnull, os.O_RDONLY)
os.dup2(_null, 0)
os.close(_null)
os.dup2(2, 1)
sys.stdin = open(os.devnull, 'r')
sys.stdout = io.TextIOWrapper(os.fdopen(1, 'wb', buffering=0), encoding='utf-8',
                              errors='replace', line_buffering=True, write_through=True)
sys.stderr = io.TextIOWrapper(os.fdopen(2, 'wb', buffering=0), encoding='utf-8',
                              errors='replace', line_buffering=True, write_through=True)

NET = []
_NET_EVENTS = {'socket.connect', 'socket.sendto', 'socket.sendmsg', 'socket.bind',
               'socket.getaddrinfo', 'socket.gethostbyname', 'socket.gethostbyaddr',
               'urllib.Request', 'http.client.connect', 'ftplib.connect', 'smtplib.connect'}


def _audit(event, args):
    if event in _NET_EVENTS:
        what = event
        if event == 'urllib.Request' and args:
            what = 'urllib.request (%s)' % str(args[0])[:100]
        NET.append(what)


sys.addaudithook(_audit)


def _student_frame(f):
    name = f.filename or ''
    if name.startswith('<'):
        return False
    if os.path.isabs(name):
        if not name.startswith(GAME + os.sep):
            return False
        f.filename = os.path.relpath(name, GAME)
    return True


def _filter(te, seen):
    if te is None or id(te) in seen:
        return
    seen.add(id(te))
    te.stack = traceback.StackSummary.from_list([f for f in te.stack if _student_frame(f)])
    _filter(te.__cause__, seen)
    _filter(te.__context__, seen)
    for x in getattr(te, 'exceptions', None) or []:
        _filter(x, seen)


def syntax_failure(e, code='syntax_error'):
    name = e.filename or '?'
    if os.path.isabs(name) and name.startswith(GAME + os.sep):
        name = os.path.relpath(name, GAME)
    where = name
    if e.lineno:
        where += ' line %d' % e.lineno
        if e.offset:
            where += ', column %d' % e.offset
    return {'ok': False, 'code': code, 'message': '%s: %s: %s' % (where, type(e).__name__, e.msg)}


def failure(e):
    if isinstance(e, SyntaxError) and e.filename and not e.filename.startswith('<'):
        return syntax_failure(e)
    te = traceback.TracebackException.from_exception(e)
    _filter(te, set())
    code = 'out_of_memory' if isinstance(e, MemoryError) else 'exception'
    return {'ok': False, 'code': code, 'message': ''.join(te.format()).rstrip('\n')}


def network():
    return {'ok': False, 'code': 'network', 'message': ', '.join(dict.fromkeys(NET))}


def describe(value):
    return '%s (a %s)' % (reprlib.repr(value), type(value).__name__)


def python_files():
    for top, folders, files in os.walk(GAME):
        folders.sort()
        for name in sorted(files):
            if name.endswith('.py'):
                yield os.path.relpath(os.path.join(top, name), GAME)


def start(config):
    try:
        random.seed(int(config.get('seed', 0)))
    except (TypeError, ValueError):
        random.seed(0)
    main = config['main']
    for path in python_files():
        try:
            with open(path, 'rb') as f:
                compile(f.read(), path, 'exec', dont_inherit=True)
        except SyntaxError as e:
            return None, syntax_failure(e)
        except ValueError as e:
            return None, {'ok': False, 'code': 'syntax_error', 'message': '%s: %s' % (path, e)}
    stem = os.path.splitext(os.path.basename(main))[0]
    module = types.ModuleType(stem)
    module.__file__ = os.path.join(GAME, main)
    sys.modules[stem] = module
    sys.argv = [main]
    try:
        with open(main, 'rb') as f:
            code = compile(f.read(), main, 'exec', dont_inherit=True)
        exec(code, module.__dict__)
    except SystemExit as e:
        return None, {'ok': False, 'code': 'exception',
                      'message': '%s called sys.exit(%r) while being imported' % (main, e.code)}
    except BaseException as e:
        return None, failure(e)
    if NET:
        return None, network()
    if not callable(getattr(module, 'move', None)):
        return None, {'ok': False, 'code': 'no_move_function',
                      'message': '%s defines no function move(request)' % main}
    return module, {'ok': True}


def play(module, line):
    try:
        request = json.loads(line)
    except ValueError as e:
        return {'ok': False, 'code': 'could_not_start', 'message': 'the request is not JSON: %s' % e}
    try:
        result = module.move(request)
    except SystemExit as e:
        return {'ok': False, 'code': 'exception',
                'message': 'move called sys.exit(%r): a function player returns its move instead' % (e.code,)}
    except BaseException as e:
        return failure(e)
    if NET:
        return network()
    try:
        body = json.dumps(result, allow_nan=False)
    except Exception as e:
        return {'ok': False, 'code': 'malformed_answer',
                'message': 'move returned %s, which cannot be sent as JSON: %s' % (describe(result), e)}
    return {'ok': True, 'body': body}


def answer(reply):
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            pass
    PROTO_OUT.write(json.dumps(reply) + '\n')
    PROTO_OUT.flush()


def main():
    first = PROTO_IN.readline()
    if not first:
        return
    module, reply = start(json.loads(first))
    answer(reply)
    if module is None:
        return
    for line in PROTO_IN:
        del NET[:]
        try:
            os.chdir(GAME)
        except OSError:
            pass
        answer(play(module, line))


main()
