fn main() {
    match xdie_gen::load(std::path::Path::new("csrs")) {
        Ok(c) => {
            let f = c.soc.fold("fold_neighbor").unwrap();
            println!(
                "ok: {} blocks, neighbor fold {:#x}",
                c.blocks.len(),
                c.soc.apply_fold(f, &[0x100000, 1])
            );
            let f = c.soc.fold("fold_chip_id").unwrap();
            println!("chip {:#x}", c.soc.apply_fold(f, &[0x100000, 1, 0x12]));
        }
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2)
        }
    }
}
