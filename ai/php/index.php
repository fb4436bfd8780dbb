<?php
/*
 * GridArena Halma starter AI in plain PHP.
 *
 * Run:   php -S 127.0.0.1:8002 ai/php/index.php
 * Then:  choose "Web AI (URL)" for a team on the arena page and enter http://127.0.0.1:8002/
 *
 * The referee POSTs a request (docs/protocol.md) as JSON with Content-Type: text/plain, and this script
 * answers with one move: {"from":{"x":..,"y":..},"to":[{"x":..,"y":..},...]}.
 *
 * The move is always legal (the rules are docs/halma.md) and greedy, like the course's sample AIs: the one
 * that brings a piece nearest to a free destination square. Ties are broken the same way every time, so the
 * Python starter (ai/python/halma_ai.py) gives exactly the same answers. Start improving it in choose_move().
 */

// The eight directions, in the order both starters search them.
const DIRECTIONS = [[-1, -1], [0, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [0, 1], [1, 1]];
const MAX_BODY_BYTES = 1024 * 1024; // requests are a few KiB; refuse anything absurd
const MAX_BOARD_SIZE = 256;         // this starter's own limit (the arena uses 4 to 32)

/** The request is not a Halma request: answered with HTTP 400 and this message. */
class BadRequest extends Exception {}

// ---------------------------------------------------------------------------------------------------
// Reading the request. Squares are [x, y] arrays; sets of squares are arrays keyed by "x,y".

function sq_key(array $s): string
{
    return $s[0] . ',' . $s[1];
}

function integer($value, string $what): int
{
    if (!is_int($value)) {
        throw new BadRequest("$what must be an integer");
    }
    return $value;
}

function square($value, string $what, int $size): array
{
    if (!($value instanceof stdClass)) {
        throw new BadRequest("$what must be an object {\"x\":..,\"y\":..}");
    }
    if (!property_exists($value, 'x') || !property_exists($value, 'y')) {
        throw new BadRequest("$what needs both \"x\" and \"y\"");
    }
    $x = integer($value->x, "$what.x");
    $y = integer($value->y, "$what.y");
    if ($x < 0 || $x >= $size || $y < 0 || $y >= $size) {
        throw new BadRequest("$what ($x,$y) is off the {$size}x{$size} board");
    }
    return [$x, $y];
}

/** A list of squares, or of pieces [square, damage] when $withDamage. */
function square_list(stdClass $request, string $field, int $size, bool $withDamage): array
{
    $items = $request->$field ?? null;
    if (!is_array($items)) {
        throw new BadRequest("\"$field\" must be an array");
    }
    $out = [];
    foreach ($items as $i => $item) {
        $s = square($item, "{$field}[$i]", $size);
        if ($withDamage) {
            $damage = integer(property_exists($item, 'damage') ? $item->damage : 0, "{$field}[$i].damage");
            if ($damage < 0) {
                throw new BadRequest("{$field}[$i].damage must not be negative");
            }
            $out[] = [$s, $damage];
        } else {
            $out[] = $s;
        }
    }
    return $out;
}

/** Checks the request's shape; returns [size, my pieces, my destinations, enemy squares, camp rule]. */
function read_request($request): array
{
    if (!($request instanceof stdClass)) {
        throw new BadRequest('the request must be a JSON object');
    }
    if (!property_exists($request, 'boardSize')) {
        throw new BadRequest('the request has no "boardSize"');
    }
    $size = integer($request->boardSize, 'boardSize');
    if ($size < 1 || $size > MAX_BOARD_SIZE) {
        throw new BadRequest("boardSize $size is not between 1 and " . MAX_BOARD_SIZE);
    }
    $pieces = square_list($request, 'pieces', $size, true);
    $destinations = square_list($request, 'destinations', $size, false);
    $enemy = array_map(fn($p) => $p[0], square_list($request, 'enemy', $size, true));
    square_list($request, 'enemydestinations', $size, false); // checked, not used
    $campRule = $request->campRule ?? null;
    if ($campRule === null) { // older referees: the presets with alternating turns use the camp rule
        $campRule = in_array($request->preset ?? null, ['classic', 'mini'], true);
    }
    if (!is_bool($campRule)) {
        throw new BadRequest('"campRule" must be true or false');
    }
    return [$size, $pieces, $destinations, $enemy, $campRule];
}

// ---------------------------------------------------------------------------------------------------
// The rules: every legal move of my team

/**
 * Every legal move as [from, path]: one per piece and final square, with a shortest chain.
 *
 * $occupied holds every square with a piece of either team at the start of the turn. It never changes
 * during a move: the moving piece's own square stays occupied, and landings must be empty squares.
 */
function legal_moves(int $size, array $pieces, array $destinations, array $occupied, bool $campRule): array
{
    $onBoard = fn($x, $y) => $x >= 0 && $x < $size && $y >= 0 && $y < $size;
    $home = [];
    foreach ($destinations as $d) {
        $home[sq_key($d)] = true;
    }
    $result = [];
    foreach ($pieces as [$start, $damage]) {
        [$x0, $y0] = $start;
        $moves = [];
        // One step to an empty neighbour.
        foreach (DIRECTIONS as [$dx, $dy]) {
            $to = [$x0 + $dx, $y0 + $dy];
            if ($onBoard(...$to) && !isset($occupied[sq_key($to)])) {
                $moves[] = [$to];
            }
        }
        // Chains of jumps, each over an occupied neighbour onto the empty square beyond it. A breadth-first
        // search finds every square a chain reaches, and the shortest chain to it (no square twice).
        if ($damage === 0) {
            $cameFrom = [sq_key($start) => null];
            $queue = [$start];
            for ($head = 0; $head < count($queue); $head++) {
                [$x, $y] = $queue[$head];
                foreach (DIRECTIONS as [$dx, $dy]) {
                    $over = [$x + $dx, $y + $dy];
                    $to = [$x + 2 * $dx, $y + 2 * $dy];
                    if ($onBoard(...$to) && isset($occupied[sq_key($over)]) && !isset($occupied[sq_key($to)])
                        && !array_key_exists(sq_key($to), $cameFrom)) {
                        $cameFrom[sq_key($to)] = [$x, $y];
                        $queue[] = $to;
                        $chain = [];
                        for ($at = $to; $at !== $start; $at = $cameFrom[sq_key($at)]) {
                            $chain[] = $at;
                        }
                        $moves[] = array_reverse($chain);
                    }
                }
            }
        }
        foreach ($moves as $path) {
            // The camp rule: a piece standing in its destinations may not end its move outside them.
            if ($campRule && isset($home[sq_key($start)]) && !isset($home[sq_key(end($path))])) {
                continue;
            }
            $result[] = [$start, $path];
        }
    }
    return $result;
}

// ---------------------------------------------------------------------------------------------------
// The strategy

function chebyshev(array $a, array $b): int
{
    return max(abs($a[0] - $b[0]), abs($a[1] - $b[1]));
}

/** Every legal move as [rank, [from, path]], best first: the greedy move is the first. */
function ranked_moves(int $size, array $pieces, array $destinations, array $enemy, bool $campRule): array
{
    $occupied = [];
    foreach ($pieces as [$s, $damage]) {
        $occupied[sq_key($s)] = true;
    }
    foreach ($enemy as $s) {
        $occupied[sq_key($s)] = true;
    }
    $home = [];
    foreach ($destinations as $d) {
        $home[sq_key($d)] = true;
    }
    $free = array_values(array_filter($destinations, fn($d) => !isset($occupied[sq_key($d)])));
    $targets = $free ?: $destinations; // every destination is taken: head for any of them
    // Steps (kings' moves) from $s to the nearest target; 0 for a piece already home.
    $distance = function (array $s) use ($targets, $home): int {
        if (isset($home[sq_key($s)])) {
            return 0;
        }
        $best = null;
        foreach ($targets as $t) {
            $best = min($best ?? PHP_INT_MAX, chebyshev($s, $t));
        }
        return $best ?? 0;
    };
    // How far $s is from the middle of the board, in half squares: the destinations lie in a corner, so a
    // larger depth is further into them.
    $depth = fn(array $s): int => abs(2 * $s[0] - ($size - 1)) + abs(2 * $s[1] - ($size - 1));
    // Smaller is better. First the kind of move:
    // 0  a piece not home yet gets nearer a free destination (the bigger the gain the better),
    // 1  a piece already home goes deeper into the destinations, making room at their edge,
    // 2  a piece not home yet moves without getting nearer (to find a way around a block),
    // 3  anything else (a piece leaves home or moves about in it): legal, but the last resort.
    // Then the piece furthest behind, then the smallest squares (x before y), so the choice never depends
    // on the order in which the moves were generated.
    $rank = function (array $move) use ($home, $distance, $depth): array {
        [$start, $path] = $move;
        $end = end($path);
        if (!isset($home[sq_key($start)])) {
            $gain = $distance($start) - $distance($end);
            $kind = $gain > 0 ? 0 : 2;
        } elseif (isset($home[sq_key($end)]) && $depth($end) > $depth($start)) {
            [$kind, $gain] = [1, $depth($end) - $depth($start)];
        } else {
            [$kind, $gain] = [3, 0];
        }
        return [$kind, -$gain, -$distance($start), $start[0], $start[1], $end[0], $end[1]];
    };
    $ranked = [];
    foreach (legal_moves($size, $pieces, $destinations, $occupied, $campRule) as $i => $move) {
        $ranked[] = [$rank($move), $move, $i];
    }
    // Arrays of equal length compare element by element; of two equal moves, the first found (the
    // index: PHP 7's usort is not stable).
    usort($ranked, fn($a, $b) => [$a[0], $a[2]] <=> [$b[0], $b[2]]);
    return $ranked;
}

/** The greedy move as [from, path], or null if there is no legal move. */
function choose_move(int $size, array $pieces, array $destinations, array $enemy, bool $campRule): ?array
{
    $ranked = ranked_moves($size, $pieces, $destinations, $enemy, $campRule);
    return $ranked[0][1] ?? null;
}

/** What the arena draws for this answer (docs/protocol.md, "Debug marks"): the best move and the next two
 * as arrows, each labelled with its gain; the referee ignores it. Draw your own AI's thinking here. */
function debug_marks(array $ranked): array
{
    $point = fn($s) => ['x' => $s[0], 'y' => $s[1]];
    $marks = [];
    foreach (array_slice($ranked, 0, 3) as $i => [$r, [$start, $path]]) {
        $gain = -$r[1];
        $marks[] = ['from' => $point($start), 'to' => $point(end($path)),
            'color' => ['green', 'yellow', 'orange'][$i], 'label' => sprintf('%+d', $gain)];
    }
    $kind = ['nearer', 'deeper', 'around', 'last resort'][$ranked[0][0][0]];
    return ['text' => sprintf('best of %d moves: %s', count($ranked), $kind), 'marks' => $marks];
}

/** The response body (an array) for a request already decoded from JSON. */
function answer($request): array
{
    $ranked = ranked_moves(...read_request($request));
    if (!$ranked) {
        // Not a move: the referee records "no move" for this tick, which is all a team without a legal
        // move can do. The error text shows up in logs and with curl.
        return ['error' => 'no legal move'];
    }
    [$start, $path] = $ranked[0][1];
    $point = fn($s) => ['x' => $s[0], 'y' => $s[1]];
    return ['from' => $point($start), 'to' => array_map($point, $path), 'debug' => debug_marks($ranked)];
}

// ---------------------------------------------------------------------------------------------------
// The HTTP side

function send_json(int $status, array $body): void
{
    http_response_code($status);
    header('Content-Type: application/json');
    echo json_encode($body, JSON_UNESCAPED_SLASHES | JSON_INVALID_UTF8_SUBSTITUTE);
}

ini_set('display_errors', '0'); // a PHP warning must never end up in the answer
ini_set('default_mimetype', ''); // no Content-Type on the 204 answer to a preflight
header_remove('X-Powered-By');
header('Access-Control-Allow-Origin: *');

$method = $_SERVER['REQUEST_METHOD'] ?? 'GET';
if ($method === 'OPTIONS') {
    // A CORS preflight. The arena sends text/plain, which needs none; other clients may ask.
    http_response_code(204);
    header('Access-Control-Allow-Methods: POST, OPTIONS');
    header('Access-Control-Allow-Headers: Content-Type');
    header('Access-Control-Max-Age: 86400');
    return;
}
if ($method !== 'POST') {
    send_json(200, ['ai' => 'GridArena Halma starter (PHP)', 'usage' => 'POST a request, see docs/protocol.md']);
    return;
}
// Whatever the Content-Type says (the browser sends text/plain), the body is JSON.
$body = file_get_contents('php://input', false, null, 0, MAX_BODY_BYTES + 1);
if ($body === false || strlen($body) > MAX_BODY_BYTES) {
    send_json(413, ['error' => 'the body must be at most ' . MAX_BODY_BYTES . ' bytes']);
    return;
}
if (strncmp($body, "\xEF\xBB\xBF", 3) === 0) {
    $body = substr($body, 3); // a UTF-8 byte-order mark
}
$request = json_decode($body, false, 512, JSON_BIGINT_AS_STRING);
if (json_last_error() !== JSON_ERROR_NONE) {
    send_json(400, ['error' => 'the body is not JSON: ' . json_last_error_msg()]);
    return;
}
$started = microtime(true);
try {
    $response = answer($request);
} catch (BadRequest $e) {
    send_json(400, ['error' => $e->getMessage()]);
    return;
} catch (Throwable $e) { // a bug here must not take the server down
    send_json(500, ['error' => 'internal error: ' . $e->getMessage()]);
    return;
}
send_json(200, $response);

// One line per move on stderr (`php -q -S ...` hides the server's own connection log).
$squares = isset($response['from']) ? [$response['from'], ...$response['to']] : [];
$move = $squares ? implode(' -> ', array_map(fn($s) => "({$s['x']},{$s['y']})", $squares)) : $response['error'];
$team = is_string($request->team ?? null) ? $request->team : '?';
$turn = is_int($request->turn ?? null) ? $request->turn : '?';
$ms = (microtime(true) - $started) * 1000;
file_put_contents('php://stderr', sprintf("%s turn %s: %s (%.1f ms)\n", $team, $turn, $move, $ms));
