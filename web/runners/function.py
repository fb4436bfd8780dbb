# GridArena's code-player runner for Python: the one source of what a Python player's move is, in both
# hosts. The page runs it in Pyodide (web/code-runtime.mjs, bundled into dist/code/worker.js); the
# command line runs it in python3 inside its sandbox (crates/cli/src/code/function.rs embeds it, with
# crates/cli/src/code/runner.py after it to speak the lines protocol). web/runners/course.py adds the
# page's course format to it. The conformance suite (tests/fixtures/conformance/) checks the two hosts
# give the same moves, failures and printed text for the same code and seed.
#
# Entry points take and return JSON texts, so a host needs no Python objects:
#   new_game(config)   config {main, format, seed, python: [paths], originals: [paths]}
#   move_function(request)
# Each returns {ok, body | code, message, file?, line?, column?, kept, total, net}: kept is what the
# player printed, up to the cap the host gives; total how many characters it printed in all; net the
# network attempts seen (the host fails the move `network` when there are any).
import sys, os, io, json, types, builtins, importlib, importlib.util, importlib.machinery
import traceback, linecache, random, shutil, reprlib, functools

GAME = '/game'
TAIL = 2000
NET = []
STDLIB_PATH = [p for p in sys.path if p not in ('', '.', '/home/pyodide')]


def configure(game, record=None):
    """The game's folder (the page's /game, the command line's private folder for this game), and where
    each network attempt is recorded besides NET: the page gives a function of its own realm, which
    only appends, so code that empties NET cannot take an attempt back. Once per interpreter."""
    global GAME
    GAME = os.path.abspath(game)
    # A hook cannot be removed once added; a partial's function and arguments cannot be replaced, and
    # the hook refuses a new __code__ for any function, so the student cannot quiet it.
    sys.addaudithook(functools.partial(_audit, record, _NET_EVENTS, NET.append))


class Capture:
    """What the player prints: the first `cap` characters, a count of all, and the end (for a crash's
    message). The host reads it from the reply, so it is never mixed with a protocol's channel."""

    def __init__(self):
        self.reset(20000)

    def reset(self, cap):
        self.cap = cap
        self.parts = []
        self.kept = 0
        self.total = 0
        self.tail = []
        self.tail_len = 0

    def write(self, s):
        n = len(s)
        self.total += n
        room = self.cap - self.kept
        if room > 0:
            self.parts.append(s[:room] if n > room else s)
            self.kept += min(n, room)
            if n <= room:
                return
            s = s[room:]
            n -= room
        if n:
            # past the cap: keep only the end, for the message of a crash
            self.tail.append(s if n <= TAIL else s[-TAIL:])
            self.tail_len += min(n, TAIL)
            if self.tail_len > 4 * TAIL:
                t = ''.join(self.tail)[-TAIL:]
                self.tail = [t]
                self.tail_len = len(t)

    def end(self):
        if self.tail_len:
            return ''.join(self.tail)[-TAIL:]
        return ''.join(self.parts)[-TAIL:]


CAPTURE = Capture()


class _Bytes:
    def write(self, b):
        CAPTURE.write(bytes(b).decode('utf-8', 'replace'))
        return len(b)

    def flush(self):
        pass


class Stream(io.TextIOBase):
    encoding = 'utf-8'
    errors = 'strict'

    def __init__(self, name):
        self._name = name
        self.buffer = _Bytes()

    @property
    def name(self):
        return self._name

    def write(self, s):
        if not isinstance(s, str):
            raise TypeError('write() argument must be str, not ' + type(s).__name__)
        CAPTURE.write(s)
        return len(s)

    def writable(self):
        return True

    def isatty(self):
        return False

    def flush(self):
        pass


STDOUT = Stream('<stdout>')
STDERR = Stream('<stderr>')


# --- the network, seen from Python -------------------------------------------------------------------
# Each host closes the network below Python too (the page its JavaScript globals, the command line its
# sandbox); this names the attempt the same way in both, and refuses the move even where the code
# caught the error.

def _refuse(what, audit, *args, **kwargs):
    audit('gridarena.network', what)
    raise OSError('network access is closed to code players (' + what + ')')


def _closed(what):
    return functools.partial(_refuse, what, sys.audit)


_NET_EVENTS = frozenset({'gridarena.network', 'socket.connect', 'socket.sendto', 'socket.sendmsg',
                         'socket.bind', 'socket.getaddrinfo', 'socket.gethostbyname',
                         'socket.gethostbyaddr', 'urllib.Request', 'http.client.connect',
                         'ftplib.connect', 'smtplib.connect'})


def _audit(record, events, note, event, args):
    # Only its arguments and C-level operations: no global, no builtin the student could replace.
    if event in events:
        what = args[0] if event == 'gridarena.network' else \
            'urllib.request' if event == 'urllib.Request' else event
        if record is not None:
            record(what)
        note(what)
    elif event == 'object.__setattr__' and args[1:2] == ('__code__',):
        raise RuntimeError("code players may not replace a function's code")


def close_network():
    import socket, _socket
    for name in ('create_connection', 'create_server', 'getaddrinfo', 'gethostbyname', 'gethostbyname_ex',
                 'gethostbyaddr', 'getnameinfo'):
        f = _closed('socket.' + name)
        setattr(socket, name, f)
        if hasattr(_socket, name):
            setattr(_socket, name, f)
    for name in ('connect', 'connect_ex', 'sendto', 'bind'):
        setattr(socket.socket, name, _closed('socket.' + name))
    # (_socket.socket itself stays: socket.socket calls it; in the browser its connect goes through the
    # closed WebSocket, on the command line through the sandbox's refused socket())
    # pyodide.http keeps the fetch and XMLHttpRequest it saw when imported: imported before the worker closed
    # them (it is not, but should a Pyodide import it while loading), it would keep the real ones, so it is
    # imported afresh here, after they are closed
    for name in [m for m in sys.modules if m == 'pyodide.http' or m.startswith('pyodide.http.')]:
        del sys.modules[name]
    try:
        import pyodide.http as http
        for name in ('pyfetch', 'open_url'):
            if hasattr(http, name):
                setattr(http, name, _closed('pyodide.http.' + name))
    except ImportError:
        pass


close_network()


# --- the player's files and modules ------------------------------------------------------------------

def inside(path):
    return isinstance(path, str) and (path == GAME or path.startswith(GAME + '/'))


def rel(path):
    return os.path.relpath(path, GAME) if inside(path) else path


class StudentLoader(importlib.machinery.SourceFileLoader):
    """Compiles the player's modules with their path relative to the game folder as the file name, so a
    traceback reads File "main.py", line 12 in both hosts; never writes or reads __pycache__."""

    def get_code(self, fullname):
        path = self.get_filename(fullname)
        return compile(self.get_data(path), rel(path), 'exec', dont_inherit=True)


def _path_hook(entry):
    p = os.path.abspath(entry or '.')
    if inside(p):
        return importlib.machinery.FileFinder(p, (StudentLoader, ['.py']))
    raise ImportError('not a player folder')


sys.path_hooks.insert(0, _path_hook)
sys.path_importer_cache.clear()
sys.dont_write_bytecode = True


class State:
    main = None
    format = None
    module = None
    originals = {}


def purge():
    """Forget the player's modules (sys.modules) so the next import runs them afresh."""
    for name, m in list(sys.modules.items()):
        try:
            mine = inside(getattr(m, '__file__', None))
            if not mine:
                paths = getattr(m, '__path__', None)
                mine = paths is not None and any(inside(p) for p in list(paths))
        except Exception:
            mine = False
        if mine:
            del sys.modules[name]
    for key in list(sys.path_importer_cache):
        if inside(key):
            del sys.path_importer_cache[key]
    importlib.invalidate_caches()
    linecache.clearcache()


def set_path(main):
    main_dir = os.path.dirname(os.path.join(GAME, main))
    first = [main_dir] if main_dir != GAME else []
    sys.path[:] = first + [GAME] + STDLIB_PATH


def remove(path):
    if os.path.lexists(path):
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path)
        else:
            os.unlink(path)


def python_files():
    """The player's Python files, by path in its folder, in a fixed order: the first that does not
    compile is the one named, in both hosts."""
    found = []
    for top, folders, names in os.walk(GAME):
        folders[:] = sorted(d for d in folders if d != '__pycache__')
        for name in sorted(names):
            if name.endswith('.py'):
                found.append(os.path.relpath(os.path.join(top, name), GAME).replace(os.sep, '/'))
    return sorted(found)


# --- errors ------------------------------------------------------------------------------------------

def _student_frame(f):
    name = f.filename or ''
    return not name.startswith('<') and not os.path.isabs(name)


def _filter(te, seen):
    if te is None or id(te) in seen:
        return
    seen.add(id(te))
    te.stack = traceback.StackSummary.from_list([f for f in te.stack if _student_frame(f)])
    _filter(te.__cause__, seen)
    _filter(te.__context__, seen)
    for x in getattr(te, 'exceptions', None) or []:
        _filter(x, seen)


def traceback_text(e):
    os.chdir(GAME)  # the student's files are found relative to it (linecache)
    te = traceback.TracebackException.from_exception(e)
    _filter(te, set())
    return ''.join(te.format()).rstrip('\n'), te


def syntax_failure(e, code='syntax_error'):
    where = rel(e.filename) if e.filename else '?'
    if e.lineno:
        where += ' line %d' % e.lineno
        if e.offset:
            where += ', column %d' % e.offset
    d = {'ok': False, 'code': code,
         'message': '%s: %s: %s' % (where, type(e).__name__, e.msg)}
    if e.filename:
        d['file'] = rel(e.filename)
    if e.lineno:
        d['line'] = e.lineno
    if e.offset:
        d['column'] = e.offset
    return d


def failure(e):
    if isinstance(e, SyntaxError) and e.filename and not e.filename.startswith('<') \
            and not os.path.isabs(e.filename):
        return syntax_failure(e)
    text, te = traceback_text(e)
    code = 'out_of_memory' if isinstance(e, MemoryError) else 'exception'
    d = {'ok': False, 'code': code, 'message': text}
    if te.stack:
        d['file'] = te.stack[-1].filename
        d['line'] = te.stack[-1].lineno
    return d


def exit_status(e):
    c = e.code
    if c is None:
        return 0
    if isinstance(c, int):
        return c
    try:
        STDERR.write(str(c) + '\n')
    except Exception:
        pass
    return 1


def crashed(status):
    end = CAPTURE.end().rstrip()
    lines = end.split('\n')
    if len(lines) > 20:
        end = '\n'.join(lines[-20:])
    msg = status if isinstance(status, str) else 'the program exited with status %d' % status
    if end:
        msg += '; the end of its output:\n' + end
    return {'ok': False, 'code': 'crashed', 'message': msg}


def describe(value):
    return '%s (a %s)' % (reprlib.repr(value), type(value).__name__)


# --- entry points; each takes and returns a JSON text --------------------------------------------------

def _entry(fn):
    def run(cap, *args):
        CAPTURE.reset(cap)
        sys.stdout = STDOUT
        sys.stderr = STDERR
        del NET[:]
        try:
            os.chdir(GAME)
        except OSError:
            pass
        try:
            r = fn(*args)
        except BaseException as e:  # a failure of this runtime rather than of the player
            r = {'ok': False, 'code': 'crashed', 'message': 'the runtime failed: ' + repr(e)}
        sys.stdout = STDOUT
        sys.stderr = STDERR
        r['kept'] = ''.join(CAPTURE.parts)
        r['total'] = CAPTURE.total
        r['net'] = list(NET)
        return json.dumps(r)
    run.__name__ = fn.__name__
    return run


def clear_game():
    purge()
    os.chdir('/')
    remove(GAME)
    os.makedirs(GAME)
    os.chdir(GAME)


@_entry
def new_game(config):
    c = json.loads(config)
    State.main = c['main']
    State.format = c.get('format', 'function')
    State.module = None
    State.originals = {}
    for p in c.get('originals', ()):
        with open(os.path.join(GAME, p), 'rb') as f:
            State.originals[p] = f.read()
    purge()
    set_path(State.main)
    sys.argv = [State.main]
    try:
        random.seed(int(c['seed']))
    except (TypeError, ValueError, KeyError):
        random.seed(0)
    for p in python_files():
        with open(os.path.join(GAME, p), 'rb') as f:
            source = f.read()
        try:
            compile(source, p, 'exec', dont_inherit=True)
        except SyntaxError as e:
            return syntax_failure(e)
        except ValueError as e:
            return {'ok': False, 'code': 'syntax_error', 'file': p, 'message': '%s: %s' % (p, e)}
    if State.format == 'function':
        return import_main()
    return {'ok': True}


def import_main():
    main = State.main
    path = os.path.join(GAME, main)
    stem = os.path.splitext(os.path.basename(main))[0]
    loader = StudentLoader(stem, path)
    spec = importlib.util.spec_from_file_location(stem, path, loader=loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules[stem] = module
    try:
        loader.exec_module(module)
    except SystemExit as e:
        sys.modules.pop(stem, None)
        return {'ok': False, 'code': 'exception',
                'message': '%s called sys.exit(%r) while being imported' % (main, e.code)}
    except BaseException as e:
        sys.modules.pop(stem, None)
        return failure(e)
    if not callable(getattr(module, 'move', None)):
        return {'ok': False, 'code': 'no_move_function', 'file': main,
                'message': '%s defines no function move(request)' % main}
    State.module = module
    return {'ok': True}


@_entry
def move_function(request):
    if State.module is None:
        return {'ok': False, 'code': 'crashed', 'message': 'no player is loaded (its start failed)'}
    try:
        req = json.loads(request)
    except ValueError as e:
        return {'ok': False, 'code': 'crashed', 'message': 'the request is not JSON: %s' % e}
    try:
        result = State.module.move(req)
    except SystemExit as e:
        exit_status(e)  # a message given to sys.exit goes to the output, as in Python
        return crashed('move called sys.exit(%r): a function player returns its move instead' % (e.code,))
    except BaseException as e:
        return failure(e)
    try:
        body = json.dumps(result, allow_nan=False)
    except Exception as e:
        return {'ok': False, 'code': 'malformed_answer',
                'message': 'move returned %s, which cannot be sent as JSON: %s' % (describe(result), e)}
    return {'ok': True, 'body': body}
