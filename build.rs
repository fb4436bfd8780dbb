//! The page modules that split parts off (`split_part!` in their bin, src/lazy.rs) keep the linker's
//! relocations: scripts/split.sh needs them to cut the parts out, and writes modules without them. Only
//! these pages: every other module is bound and optimised by trunk as it is, relocations included.
//! index.html names the same pages, to fetch their parts' loader with the page.
const SPLIT_PAGES: [&str; 6] = [
    "gridarena-halma",
    "gridarena-tournament",
    "gridarena-go",
    "gridarena-hyperchess",
    "gridarena-doctor",
    "gridarena-online",
];

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32") {
        for bin in SPLIT_PAGES {
            println!("cargo:rustc-link-arg-bin={bin}=--emit-relocs");
        }
    }
}
