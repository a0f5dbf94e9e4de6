# Hand-written RTL (datapath, memories, link, tops), in compile order. The generated filelist
# rtl/xdie.f lists these after the generated packages and register blocks. Paths are relative to
# the repository root; lines starting with '#' are comments.
rtl/xdie_sdma_engine.sv
