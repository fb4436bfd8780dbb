# The page's course format for Python, on top of web/runners/function.py (run in the same module): the
# course's program (a fresh __main__ each move, input.txt in, output.txt out, side files kept through
# the game) in Pyodide's one live interpreter, which no process ends. The command line runs the course
# format as a real python3 process per move (crates/cli/src/program/course.rs), so only the page needs
# this file; the conformance suite plays the same course scripts in both.
#   move_course(input_text) -> the reply of function.py's entry points, plus side (the files the program
#   wrote, base64) or sideOver.

import base64, stat, atexit, weakref

OUTPUT_CAP = 64 * 1024
SIDE_CAP = 1 << 20


@_entry
def move_course(input_text):
    main = State.main
    for name in ('input.txt', 'output.txt'):
        remove(os.path.join(GAME, name))
    with open(os.path.join(GAME, 'input.txt'), 'w', encoding='utf-8', newline='') as f:
        f.write(input_text)
    purge()
    set_path(main)
    path = os.path.join(GAME, main)
    r = run_main(main, path)
    r.update(side_files())
    return r


def run_main(main, path):
    try:
        with open(path, 'rb') as f:
            code = compile(f.read(), main, 'exec', dont_inherit=True)
    except SyntaxError as e:
        STDERR.write(syntax_failure(e)['message'] + '\n')
        return crashed(1)
    except OSError as e:
        return {'ok': False, 'code': 'crashed', 'message': 'cannot read %s: %s' % (main, e)}
    module = types.ModuleType('__main__')
    module.__file__ = path
    module.__builtins__ = builtins
    module.__spec__ = None
    module.__loader__ = None
    module.__package__ = ''
    module.__cached__ = None
    saved_main, saved_argv = sys.modules.get('__main__'), sys.argv
    sys.modules['__main__'] = module
    sys.argv = [main]
    status = 0
    process = Process()
    try:
        exec(code, module.__dict__)
    except SystemExit as e:
        status = exit_status(e)
    except BaseException as e:
        # As the interpreter does when a script raises: the traceback on stderr, exit status 1 (the
        # command line runs the same script as a process, and names it the same way).
        try:
            text, _ = traceback_text(e)
            STDERR.write(text + '\n')
        except Exception:
            pass
        status = 1
    finally:
        process.exit()
        sys.modules['__main__'] = saved_main
        sys.argv = saved_argv
        try:
            os.chdir(GAME)
        except OSError:
            pass
    if status:
        return crashed(status)
    out = os.path.join(GAME, 'output.txt')
    try:
        st = os.lstat(out)
    except FileNotFoundError:
        return {'ok': False, 'code': 'no_output', 'message': 'the program ended without writing output.txt'}
    if not stat.S_ISREG(st.st_mode):
        return {'ok': False, 'code': 'no_output',
                'message': 'output.txt is not a regular file (a link, a folder or a pipe)'}
    if st.st_size > OUTPUT_CAP:
        return {'ok': False, 'code': 'output_too_large',
                'message': 'output.txt holds %d bytes; at most %d are read' % (st.st_size, OUTPUT_CAP)}
    with open(out, 'rb') as f:
        data = f.read(OUTPUT_CAP + 1)
    if len(data) > OUTPUT_CAP:
        return {'ok': False, 'code': 'output_too_large',
                'message': 'output.txt holds more than %d bytes' % OUTPUT_CAP}
    return {'ok': True, 'body': data.decode('utf-8', 'replace')}


class Process:
    """One course move seen as the process it is on a computer: the files the script opens and the atexit
    handlers it registers are noted (builtins.open and atexit.register, replaced while it runs), and exit()
    does what the interpreter does when a process ends, in its order: the handlers run (last registered
    first), sys.stdout and sys.stderr are flushed, and every file still open is flushed and closed. Students
    leave output.txt open (out = open("output.txt", "w"); out.write(move), or sys.stdout = open(...) and
    print) and rely on that; in a live interpreter nothing ends, so without it their output.txt stays
    empty."""

    def __init__(self):
        self.files = []  # weak references: a file the script drops is closed then, as CPython does
        self.handlers = []
        self.saved = (builtins.open, io.open, atexit.register, atexit.unregister)
        real_open = builtins.open

        def open(*args, **kwargs):
            f = real_open(*args, **kwargs)
            try:
                self.files.append(weakref.ref(f))
            except TypeError:
                pass
            return f

        def register(func, *args, **kwargs):
            self.handlers.append((func, args, kwargs))
            return func

        def unregister(func):
            self.handlers[:] = [h for h in self.handlers if h[0] != func]

        open.__doc__ = real_open.__doc__
        builtins.open = io.open = open
        atexit.register = register
        atexit.unregister = unregister

    def exit(self):
        builtins.open, io.open, atexit.register, atexit.unregister = self.saved
        while self.handlers:
            func, args, kwargs = self.handlers.pop()
            try:
                func(*args, **kwargs)
            except SystemExit:
                pass
            except BaseException as e:
                try:
                    text, _ = traceback_text(e)
                    STDERR.write('Exception ignored in atexit callback %r:\n%s\n' % (func, text))
                except Exception:
                    pass
        for stream in (sys.stdout, sys.stderr):
            if stream is not STDOUT and stream is not STDERR:
                try:
                    stream.flush()
                except Exception:
                    pass
        sys.stdout = STDOUT
        sys.stderr = STDERR
        for ref in reversed(self.files):
            f = ref()
            if f is not None:
                try:
                    f.close()
                except Exception:
                    pass
        self.files = []


def side_files():
    """Every regular file in the game folder that the program created or changed (not input.txt or
    output.txt), base64, or sideOver when they come to more than SIDE_CAP bytes."""
    out = []
    total = 0
    for root, dirs, names in os.walk(GAME):
        dirs[:] = sorted(d for d in dirs if d != '__pycache__' and not os.path.islink(os.path.join(root, d)))
        for name in sorted(names):
            path = os.path.join(root, name)
            r = os.path.relpath(path, GAME)
            if r in ('input.txt', 'output.txt'):
                continue
            try:
                if not stat.S_ISREG(os.lstat(path).st_mode):
                    continue
                with open(path, 'rb') as f:
                    data = f.read(SIDE_CAP + 1)
            except OSError:
                continue
            if State.originals.get(r) == data:
                continue
            total += len(data)
            if total > SIDE_CAP:
                return {'sideOver': True}
            out.append({'path': r, 'base64': base64.b64encode(data).decode('ascii')})
    return {'side': out}
