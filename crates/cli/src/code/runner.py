# The command line's side of the Python function runner. crates/cli/src/code/function.rs runs
# `python3 -c` on web/runners/function.py followed by this file, one process per side per game, in the
# game's folder inside the sandbox: what a move is (seeding, module state, printing, failures, the
# answer) is function.py's, the same source the page runs; this file only speaks the lines protocol.
#   in:  {"seed": "123", "main": "main.py", "outputChars": 8000}   then one request object per move
#   out: one reply per line (crates/engine/src/halma/code/reply.rs: RunnerReply): after the import, then
#        per move
# The student's print() is captured by function.py and travels in the reply; anything written below
# it (os.write(1, ...), a child process) goes to stderr, which gridarena adds to what the code printed.
configure(os.getcwd())  # attempts are NET's alone: the kernel, not this list, keeps the network closed here
PROTO_IN = os.fdopen(os.dup(0), 'r', encoding='utf-8', newline='\n')
PROTO_OUT = os.fdopen(os.dup(1), 'w', encoding='utf-8', newline='\n')
_null = os.open(os.devnull, os.O_RDONLY)
os.dup2(_null, 0)
os.close(_null)
os.dup2(2, 1)
sys.stdin = open(os.devnull, 'r')


def answer(text):
    r = json.loads(text)
    r['output'] = r.pop('kept', '')
    r['outputChars'] = r.pop('total', 0)
    net = r.pop('net', [])
    if net:
        r = {'ok': False, 'code': 'network', 'message': ', '.join(dict.fromkeys(net)),
             'output': r['output'], 'outputChars': r['outputChars']}
    PROTO_OUT.write(json.dumps(r) + '\n')
    PROTO_OUT.flush()
    return r['ok']


def serve():
    first = PROTO_IN.readline()
    if not first:
        return
    config = json.loads(first)
    # The host sends its cap (the engine's MAX_OUTPUT_CHARS): a runner with a cap of its own would drift.
    cap = int(config['outputChars'])
    game = {'main': config['main'], 'format': 'function', 'seed': config.get('seed', '0')}
    if not answer(new_game(cap, json.dumps(game))):
        return
    for line in PROTO_IN:
        answer(move_function(cap, line))


serve()
