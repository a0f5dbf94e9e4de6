# Hand-written RTL (datapath, memories, link, tops), in compile order. The generated filelist
# rtl/xdie.f lists these after the generated packages and register blocks. Paths are relative to
# the repository root; lines starting with '#' are comments.
rtl/xdie_sdma_engine.sv
rtl/xdie_xbar.sv
rtl/xdie_mem.sv
rtl/xdie_sbuf.sv
rtl/xdie_xbus_csr.sv
rtl/xdie_host_port.sv
rtl/xdie_d2d_fifo.sv
rtl/xdie_d2d_channel.sv
rtl/xdie_d2d_link.sv
rtl/xdie_d2d_port.sv
rtl/xdie_xbus_err.sv
rtl/xdie_axil_demux.sv
rtl/xdie_die.sv
rtl/xdie_pkg_top.sv
