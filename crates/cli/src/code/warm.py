# The warm interpreter of a course-format code entry (crates/cli/src/program/course.rs): one per entry
# and game, in the same sandbox and game folder as `python3 MAIN` ran in once per move, so a move costs
# a fork instead of an interpreter's start. It imports nothing of the student's: at each move it forks a
# child that runs MAIN as `python3 MAIN` would, as a fresh `__main__` in a fresh copy of this process,
# so nothing of one move (module globals, imported sibling modules, atexit handlers) reaches the next.
#
# Its channel: gridarena writes `run` on its stdin for a move; once the child has ended (and, where
# this is its PID namespace's init, every process the move left has been killed), it reads a line with
# a nonce, writes the marker `\x01gridarena:NONCE\x01` on stderr, so gridarena knows it has all of the
# move's stderr, and answers `STATUS CPU_MICROSECONDS` on stdout: the child's raw wait status and its
# user plus system time (os.wait4). The child never holds the channel: its fds 0, 1 and 2 are what a
# per-move process has (/dev/null, stderr, stderr) and every other descriptor is closed, and the nonce
# is read only after it has ended.
#
# Two things a fresh `python3 MAIN` would do at every move are done once, ahead of the move, where the
# result cannot differ: the fork itself (the next move's child is forked as soon as a move has been
# answered and waits, holding nothing but its go pipe, for `run`), and compiling MAIN (compiled once at
# the start; a child runs that code only while MAIN's bytes are still the ones compiled, and compiles
# afresh otherwise, or where compiling said anything: a warning is printed at every move, as Python does).
import sys

# `python3 -c` puts the current folder (the game's) first on the path: nothing is imported from it.
if sys.path and sys.path[0] in ("", "."):
    del sys.path[0]

import _signal
import atexit
import _io
import gc
import os

# What every file object is made from (io.IOBase and io.TextIOBase are abstract classes over these).
IO_BASE = _io._IOBase
TEXT_IO_BASE = _io._TextIOBase

MAIN = sys.argv[1]
GAME = os.getcwd()
PATH = os.path.join(GAME, MAIN)
SNAPSHOT = frozenset(sys.modules)


def compiled(source):
    """MAIN's code as `python3 MAIN` compiles it, or None where compiling raised or warned (then each
    move compiles it, so the error or warning is the move's, as it would be)."""
    warnings = sys.modules.get("warnings")
    if warnings is None:
        return None
    try:
        with warnings.catch_warnings(record=True) as heard:
            warnings.simplefilter("always")
            code = compile(source, PATH, "exec", dont_inherit=True)
        return None if heard else code
    except BaseException:
        return None


try:
    with open(PATH, "rb") as _f:
        SOURCE = _f.read()
    CODE = compiled(SOURCE)
except BaseException:
    SOURCE, CODE = None, None
# A child may signal its parent (when this is not a namespace's init): an interrupt is not a crash.
_signal.signal(_signal.SIGINT, _signal.SIG_IGN)

CONTROL_IN = os.dup(0)
CONTROL_OUT = os.dup(1)
_null = os.open(os.devnull, os.O_RDONLY)
os.dup2(_null, 0)
os.close(_null)
# What the script prints joins its stderr, as a per-move process's did (`exec 1>&2`).
os.dup2(2, 1)
INIT = os.getpid() == 1


def control_line():
    """One line from gridarena, a byte at a time, so nothing past it is read (and forked) early."""
    line = bytearray()
    while True:
        c = os.read(CONTROL_IN, 1)
        if not c:
            os._exit(0)  # gridarena has gone
        if c == b"\n":
            return bytes(line)
        line += c


def flush_std():
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BaseException:
            pass


def run():
    """Runs MAIN as `python3 MAIN` does and ends as its process would; returns the exit status."""
    os.chdir(GAME)
    path = PATH
    sys.argv = [MAIN]
    sys.path.insert(0, os.path.dirname(os.path.realpath(path)))
    main = type(sys)("__main__")
    loader = sys.modules["_frozen_importlib_external"].SourceFileLoader("__main__", path)
    main.__dict__.update(
        __file__=path,
        __builtins__=sys.modules["builtins"],
        __loader__=loader,
        __spec__=None,
        __package__=None,
        __cached__=None,
        __annotations__={},
    )
    sys.modules["__main__"] = main
    status = 0
    try:
        try:
            with open(path, "rb") as f:
                source = f.read()
            if CODE is not None and source == SOURCE:
                code = CODE
            else:
                code = compile(source, path, "exec", dont_inherit=True)
        except SyntaxError as e:
            # No traceback above a syntax error, as Python prints it.
            e.__traceback__ = None
            raise
        exec(code, main.__dict__)
    except SystemExit as e:
        status = exit_status(e.code)
    except BaseException as e:
        tb = e.__traceback__
        # This file's frames are not the student's.
        while tb is not None and tb.tb_frame.f_globals is globals():
            tb = tb.tb_next
        try:
            sys.excepthook(type(e), e, e.with_traceback(tb).__traceback__)
        except BaseException:
            pass
        status = 1
    ended = end(main)
    return status or ended


def exit_status(code):
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    try:
        print(code, file=sys.stderr)
    except BaseException:
        pass
    return 1


def end(main):
    """What the end of a process does: waits for its threads, runs its atexit handlers, flushes its
    streams and drops its modules, so what they alone held (a file left open with unflushed writes)
    is closed and written; what is still open after that is flushed. Returns 120 where stdout could
    not be flushed, as Python does."""
    threading = sys.modules.get("threading")
    if threading is not None:
        try:
            threading._shutdown()
        except BaseException:
            pass
    try:
        atexit._run_exitfuncs()
    except BaseException:
        pass
    flush_std()
    # The move's modules go as at an interpreter's end; a file only they held is closed by its own
    # finalizer, its text written through its buffer in order.
    try:
        main.__dict__.clear()
        for name in list(sys.modules):
            if name not in SNAPSHOT:
                del sys.modules[name]
    except BaseException:
        pass
    # Files still open (in a cycle, or reached from what lives on) are flushed before anything is
    # collected: a collection finalizes a cycle's objects in no set order, and a buffer closed before
    # its text wrapper loses the wrapper's text. Then what a finalizer wrote.
    flush_open_files()
    try:
        gc.collect()
    except BaseException:
        pass
    flush_open_files()
    try:
        sys.stdout.flush()
    except BaseException:
        return 120
    flush_std()
    return 0


def flush_open_files():
    """Flushes every file the move left open, text first: its flush writes into the buffer below it,
    whose flush then writes the file. Only the move's own objects are looked at (this process's were
    frozen before the fork), in one pass over them with the io classes' concrete bases (an abstract
    class's check would cost each object a call)."""
    text, other = [], []
    try:
        for obj in gc.get_objects():
            if isinstance(obj, IO_BASE):
                (text if isinstance(obj, TEXT_IO_BASE) else other).append(obj)
    except BaseException:
        pass
    for stream in text + other:
        try:
            if not stream.closed:
                stream.flush()
        except BaseException:
            pass


def fork_child():
    """Forks the next move's child, which waits for its go (a byte on a pipe) holding nothing else;
    returns its pid and the pipe's end that starts it. Where this process ends first, the pipe's end
    closes and the child ends unstarted."""
    # What this process holds is never the move's: the child's collections and its sweep for open
    # files see only what the move made.
    gc.freeze()
    go_out, go_in = os.pipe()
    pid = os.fork()
    if pid != 0:
        os.close(go_out)
        return pid, go_in
    status = 1
    try:
        os.closerange(3, go_out)
        os.closerange(go_out + 1, max(256, os.sysconf("SC_OPEN_MAX")))
        if os.read(go_out, 1) != b"g":
            os._exit(0)
        os.close(go_out)
        _signal.signal(_signal.SIGINT, _signal.default_int_handler)
        atexit._clear()
        status = run()
    finally:
        os._exit(status)


def end_leftovers():
    """As the namespace's init, kills every process the move left (a child's own children, orphaned
    or not) and reaps them: nothing of a move outlives it, as when a per-move process's init ended."""
    while True:
        try:
            os.kill(-1, 9)
        except OSError:
            pass
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            return


child, go = fork_child()
os.write(CONTROL_OUT, b"ready\n")
while True:
    if control_line() != b"run":
        os._exit(2)
    try:
        os.write(go, b"g")
    except OSError:
        pass  # the child is gone already (killed from outside): its status says how
    os.close(go)
    _, status, usage = os.wait4(child, 0)
    if INIT:
        end_leftovers()
    nonce = control_line()
    os.write(2, b"\x01gridarena:" + nonce + b"\x01")
    cpu = int((usage.ru_utime + usage.ru_stime) * 1_000_000)
    os.write(CONTROL_OUT, b"%d %d\n" % (status, cpu))
    # The next move's child is forked while gridarena reads this one's answer.
    child, go = fork_child()
