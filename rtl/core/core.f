// Hand-written RTL (datapath, memories, link, tops) in compile order. Paths are relative to this
// file's folder, so Verilator takes it as `-F rtl/core/core.f` after the generated files. The
// generated rtl/xdie.f lists these (as rtl/core/<file>) after the generated packages and register
// blocks, which they import and instantiate; `xdie gen` reads this list, nothing else names these
// files.
xdie_d2d_pkg.sv
xdie_fifo.sv
xdie_rr_arbiter.sv
xdie_clock_gate.sv
xdie_sdma_engine.sv
xdie_xbar.sv
xdie_xbar_shared.sv
xdie_mem.sv
xdie_sbuf.sv
xdie_fp32_add.sv
xdie_sbuf_acc.sv
xdie_xbus_csr.sv
xdie_host_port.sv
xdie_d2d_wire.sv
xdie_d2d_sender.sv
xdie_d2d_receiver.sv
xdie_d2d_channel.sv
xdie_d2d_link.sv
xdie_d2d_port.sv
xdie_xbus_err.sv
xdie_axil_demux.sv
xdie_die.sv
xdie_pkg_top.sv
