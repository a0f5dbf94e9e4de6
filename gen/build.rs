//! askama compiles the templates into the crate; tell cargo to rebuild when one changes, so a
//! template edit is never silently ignored by `xdie gen`.

fn main() {
    println!("cargo:rerun-if-changed=templates");
    println!("cargo:rerun-if-changed=askama.toml");
}
