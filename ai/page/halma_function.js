// A GridArena Halma AI that runs in the page: JavaScript, function format.
//
// The arena calls move(request) once for each move it asks of your team. The request is the web
// protocol's JSON as an object (docs/protocol.md): boardSize, your pieces (x, y, damage), your
// destinations, the enemy pieces, campRule, team, turn, timeLimitMs. Return the move as
// { from: { x: 2, y: 14 }, to: [{ x: 2, y: 13 }] }, with every landing square of a jump chain in `to`,
// or null for no move. console.log() shows in the inspector beside the request and your answer.
//
// Variables at the top level of this module keep their values from move to move during one game, and
// start afresh with the next game. This starter is legal and greedy: it moves the piece that gets
// nearest a free destination. Improve it in ranked(); debugMarks() draws what it considered on the board.

const DIRECTIONS = [[-1, -1], [0, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [0, 1], [1, 1]];
const key = (x, y) => `${x},${y}`;

// Every legal move as { from: [x, y], path: [[x, y], ...] }: a step to an empty neighbour, or a chain of
// jumps (a piece with damage cannot jump). With the camp rule, a piece at home must stay at home.
function legalMoves(size, pieces, occupied, home, campRule) {
  const moves = [];
  const inside = (x, y) => x >= 0 && y >= 0 && x < size && y < size;
  for (const { x: x0, y: y0, damage = 0 } of pieces) {
    const paths = [];
    for (const [dx, dy] of DIRECTIONS) {
      const x = x0 + dx, y = y0 + dy;
      if (inside(x, y) && !occupied.has(key(x, y))) paths.push([[x, y]]);
    }
    if (damage === 0) {
      const reached = new Map([[key(x0, y0), []]]);
      const frontier = [[x0, y0]];
      while (frontier.length > 0) {
        const [x, y] = frontier.shift();
        for (const [dx, dy] of DIRECTIONS) {
          const ox = x + dx, oy = y + dy, tx = x + 2 * dx, ty = y + 2 * dy;
          if (inside(tx, ty) && occupied.has(key(ox, oy)) && !occupied.has(key(tx, ty))
              && !reached.has(key(tx, ty))) {
            const path = [...reached.get(key(x, y)), [tx, ty]];
            reached.set(key(tx, ty), path);
            frontier.push([tx, ty]);
            paths.push(path);
          }
        }
      }
    }
    for (const path of paths) {
      const [ex, ey] = path[path.length - 1];
      if (campRule && home.has(key(x0, y0)) && !home.has(key(ex, ey))) continue;
      moves.push({ from: [x0, y0], path });
    }
  }
  return moves;
}

// Whether the list a comes before b (compared item by item, as Python compares tuples).
function smaller(a, b) {
  const i = a.findIndex((v, j) => v !== b[j]);
  return i >= 0 && a[i] < b[i];
}

// Every legal move with its rank and gain, best first: greedy, the move that brings a piece nearest a
// free destination. Improve me!
function ranked(request) {
  const { boardSize, pieces, destinations, enemy, campRule = false } = request;
  const occupied = new Set([...pieces, ...enemy].map((p) => key(p.x, p.y)));
  const home = new Set(destinations.map((d) => key(d.x, d.y)));
  const free = destinations.filter((d) => !occupied.has(key(d.x, d.y)));
  const targets = free.length > 0 ? free : destinations;
  const distance = ([x, y]) => home.has(key(x, y)) ? 0
    : Math.min(...targets.map((t) => Math.max(Math.abs(x - t.x), Math.abs(y - t.y))));
  const moves = [];
  for (const m of legalMoves(boardSize, pieces, occupied, home, campRule)) {
    const end = m.path[m.path.length - 1];
    const gain = distance(m.from) - distance(end);
    // Prefer a gain; then the piece furthest behind; then fixed squares so the choice is repeatable.
    const shuffle = home.has(key(...m.from)) && home.has(key(...end)) ? 1 : 0;
    const rank = [shuffle, -gain, -distance(m.from), m.from[0], m.from[1], end[0], end[1]];
    moves.push({ ...m, rank, gain });
  }
  // Stable: of two equal moves, the first found.
  return moves.sort((a, b) => (smaller(a.rank, b.rank) ? -1 : smaller(b.rank, a.rank) ? 1 : 0));
}

// What the arena draws on the board for this answer (docs/protocol.md, "Debug marks"): the best move and
// the next two as arrows labelled with their gains. The referee ignores it.
function debugMarks(moves) {
  const colours = ['green', 'yellow', 'orange'];
  const marks = moves.slice(0, 3).map((m, i) => {
    const [x, y] = m.path[m.path.length - 1];
    const label = m.gain >= 0 ? `+${m.gain}` : `${m.gain}`;
    return { from: { x: m.from[0], y: m.from[1] }, to: { x, y }, color: colours[i], label };
  });
  const gain = moves[0].gain >= 0 ? `+${moves[0].gain}` : `${moves[0].gain}`;
  return { text: `best of ${moves.length} moves: gain ${gain}`, marks };
}

export function move(request) {
  const moves = ranked(request);
  if (moves.length === 0) {
    console.log('no legal move');
    return null;
  }
  const chosen = moves[0];
  const end = chosen.path[chosen.path.length - 1];
  console.log(`turn ${request.turn}: (${chosen.from}) -> (${end})`);
  return {
    from: { x: chosen.from[0], y: chosen.from[1] },
    to: chosen.path.map(([x, y]) => ({ x, y })),
    debug: debugMarks(moves),
  };
}
