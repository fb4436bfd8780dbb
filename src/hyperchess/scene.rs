//! The board in 3D as plain data: every node of a [`View`] placed in space, turned by the viewer's
//! angles and projected with perspective onto a flat picture, far things first (so an SVG drawn in
//! this order hides the far behind the near). The component only draws it; the geometry is tested
//! natively.
//!
//! Axes: a node's `x` runs right, its level `z` runs up, and its `y` runs into the picture, so the
//! z-slices of the flat view become floors stacked one above the other. Floors are further apart than
//! nodes on a floor, so that one can look between them.

use super::view::{Cell, View};
use gridarena_engine::hyperchess::Coord;

/// The picture's size, in SVG units (the page scales it to fit).
pub const WIDTH: f64 = 600.0;
pub const HEIGHT: f64 = 640.0;

/// How far apart floors are, against nodes on one floor: far enough that, seen from a little above,
/// one floor's nodes do not cover the next one's.
const FLOOR_GAP: f64 = 2.4;

/// The camera's distance from the centre, in the board's radii: near enough for depth, far enough that
/// the near side is drawn at most a third larger than the middle.
const CAMERA: f64 = 4.0;

/// The viewer's angles, in radians: `yaw` turns the board about the vertical, `pitch` tips it toward
/// the viewer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Angles {
    pub yaw: f64,
    pub pitch: f64,
}

impl Default for Angles {
    /// A three-quarter view from above, every floor visible.
    fn default() -> Self {
        Angles {
            yaw: -0.5,
            pitch: 0.5,
        }
    }
}

impl Angles {
    /// Turned by a drag of `dx`, `dy` picture units; the pitch stays short of looking straight down
    /// or up, where the picture would flip.
    pub fn dragged(self, dx: f64, dy: f64) -> Angles {
        Angles {
            yaw: (self.yaw + dx * 0.01) % std::f64::consts::TAU,
            pitch: (self.pitch + dy * 0.01).clamp(-1.45, 1.45),
        }
    }
}

/// A node as drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct Dot {
    pub cell: Cell,
    /// Its centre in the picture, and its radius there.
    pub x: f64,
    pub y: f64,
    pub r: f64,
    /// Distance from the camera: larger is further.
    pub depth: f64,
}

/// A link between two neighbouring nodes, as a line in the picture.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Line {
    pub x1: f64,
    pub y1: f64,
    pub x2: f64,
    pub y2: f64,
}

/// The picture: the lattice's lines, then the nodes far to near.
#[derive(Clone, Debug, PartialEq)]
pub struct Scene {
    pub lines: Vec<Line>,
    pub dots: Vec<Dot>,
}

/// Projects `view` as seen from `angles`.
pub fn project(view: &View, angles: Angles) -> Scene {
    let (lo, hi) = (view.lo, view.hi);
    let centre = |a: i32, b: i32| (f64::from(a) + f64::from(b)) / 2.0;
    let (cx, cy, cz) = (centre(lo.x, hi.x), centre(lo.y, hi.y), centre(lo.z, hi.z));
    let half = |a: i32, b: i32| f64::from((b - a).max(0)) / 2.0;
    let (hx, hy, hz) = (
        half(lo.x, hi.x),
        half(lo.y, hi.y),
        half(lo.z, hi.z) * FLOOR_GAP,
    );
    // The box's half diagonal: however it is turned, the board stays inside a circle this wide, so
    // a board of any size fills about the same picture and turning it never changes its scale.
    let radius = (hx * hx + hy * hy + hz * hz).sqrt().max(1.0);
    // The near side, a third larger, still inside the picture.
    let scale = 0.36 * HEIGHT.min(WIDTH) / radius;
    let camera = CAMERA * radius;
    let (sy, cyaw) = angles.yaw.sin_cos();
    let (sp, cp) = angles.pitch.sin_cos();
    let place = |at: Coord| {
        // World: x right, up the floors, into the picture.
        let wx = f64::from(at.x) - cx;
        let wy = (f64::from(at.z) - cz) * FLOOR_GAP;
        let wz = f64::from(at.y) - cy;
        // Turn about the vertical, then tip toward the viewer.
        let (x1, z1) = (wx * cyaw - wz * sy, wx * sy + wz * cyaw);
        let (y2, z2) = (wy * cp - z1 * sp, wy * sp + z1 * cp);
        let depth = camera + z2;
        let persp = camera / depth.max(0.1);
        (
            WIDTH / 2.0 + x1 * scale * persp,
            HEIGHT / 2.0 - y2 * scale * persp,
            persp,
            depth,
        )
    };
    let mut dots: Vec<Dot> = view
        .cells
        .iter()
        .map(|c| {
            let (x, y, persp, depth) = place(c.at);
            Dot {
                cell: c.clone(),
                x,
                y,
                r: (0.27 * scale * persp).max(4.0),
                depth,
            }
        })
        .collect();
    // A set, not `view.cell`'s search: a loaded map may have many thousands of nodes, and this runs on
    // every move of a drag.
    let present: std::collections::HashSet<Coord> = view.cells.iter().map(|c| c.at).collect();
    let mut lines = Vec::new();
    for c in &view.cells {
        let (x1, y1, _, _) = place(c.at);
        for step in [(1, 0, 0), (0, 1, 0), (0, 0, 1)] {
            let next = match (
                c.at.x.checked_add(step.0),
                c.at.y.checked_add(step.1),
                c.at.z.checked_add(step.2),
            ) {
                (Some(x), Some(y), Some(z)) => Coord::new(x, y, z),
                _ => continue,
            };
            if present.contains(&next) {
                let (x2, y2, _, _) = place(next);
                lines.push(Line { x1, y1, x2, y2 });
            }
        }
    }
    dots.sort_by(|a, b| b.depth.total_cmp(&a.depth));
    Scene { lines, dots }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gridarena_engine::hyperchess::{maps, parse_map};

    /// Every node of a shipped map, unmarked.
    fn view_of(map: &str) -> View {
        View::of_lines(&parse_map(map).unwrap().state_lines(), None)
    }

    fn standard() -> View {
        view_of(maps::STANDARD)
    }

    #[test]
    fn every_node_is_drawn_inside_the_picture_far_ones_first() {
        let view = standard();
        for angles in [
            Angles::default(),
            Angles {
                yaw: 0.0,
                pitch: 0.0,
            },
            Angles::default().dragged(900.0, -400.0),
        ] {
            let scene = project(&view, angles);
            assert_eq!(scene.dots.len(), 125);
            // A 5x5x5 lattice: 3 directions x 5 x 5 x 4 links.
            assert_eq!(scene.lines.len(), 300);
            for d in &scene.dots {
                assert!(
                    (0.0..=WIDTH).contains(&d.x) && (0.0..=HEIGHT).contains(&d.y),
                    "{d:?}"
                );
                assert!(d.r >= 4.0);
            }
            assert!(scene.dots.windows(2).all(|w| w[0].depth >= w[1].depth));
        }
    }

    #[test]
    fn turning_moves_the_picture_and_a_top_floor_is_drawn_above_a_bottom_one() {
        let view = standard();
        let a = project(&view, Angles::default());
        let b = project(&view, Angles::default().dragged(50.0, 0.0));
        assert_ne!(a, b);
        let level = |s: &Scene, z: i32| {
            let ys: Vec<f64> = s
                .dots
                .iter()
                .filter(|d| d.cell.at.z == z)
                .map(|d| d.y)
                .collect();
            ys.iter().sum::<f64>() / ys.len() as f64
        };
        assert!(level(&a, 4) < level(&a, 0), "z = 4 is the top floor");
        // Holes are left out: the holed map draws only its nodes.
        let holes = view_of(maps::HOLES);
        let nodes = parse_map(maps::HOLES).unwrap().len();
        assert_eq!(project(&holes, Angles::default()).dots.len(), nodes);
    }

    #[test]
    fn the_pitch_stops_short_of_the_pole() {
        let a = Angles::default().dragged(0.0, 10_000.0);
        assert!(a.pitch < std::f64::consts::FRAC_PI_2);
        let b = Angles::default().dragged(0.0, -10_000.0);
        assert!(b.pitch > -std::f64::consts::FRAC_PI_2);
    }
}
