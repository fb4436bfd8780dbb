//! The maps shipped with GridArena (maps/hyperchess/, made by make_maps.py there), built in so the browser
//! and the terminal game can offer them without files.

/// 5x5x5, 125 nodes: Raumschach's arrangement with the seed's pieces, 20 a side.
pub const STANDARD: &str = include_str!("../../../../maps/hyperchess/standard.map");

/// 5x5x5 with holes: the centre column is missing on every level, and the middle level has four more
/// holes around it (116 nodes); the same pieces as the standard map.
pub const HOLES: &str = include_str!("../../../../maps/hyperchess/holes.map");

/// 3x3x3 with a king, rook, knight and pawn a side: a game of a few minutes.
pub const SMALL: &str = include_str!("../../../../maps/hyperchess/small.map");

/// Every shipped map with its name.
pub const SHIPPED: [(&str, &str); 3] = [
    ("standard 5x5x5", STANDARD),
    ("5x5x5 with holes", HOLES),
    ("small 3x3x3", SMALL),
];
