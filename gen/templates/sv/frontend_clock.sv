  // The bus front-end's clock (BUS_CLOCK): both clocks rise together, so with bus_clk_i running
  // in every cycle where the bus holds a transaction of this block, the front-end behaves the
  // same on either; its registers change in no other cycle.
  logic fe_clk;
  if (BUS_CLOCK) begin : g_bus_clock
    assign fe_clk = bus_clk_i;
  end else begin : g_one_clock
    logic unused_bus_clk;
    assign unused_bus_clk = bus_clk_i;
    assign fe_clk = clk_i;
  end
{#- Included by register-block templates before their xdie_axil_regif; the including template
    declares BUS_CLOCK, clk_i and bus_clk_i. #}
