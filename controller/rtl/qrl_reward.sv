// Percentile reward unit: log2-spaced histogram (2^SubBits sub-bins per octave) in a RAM,
// thresholds at the P0/P1/P2 percentiles recomputed by a sequential scan every Period samples,
// counts halved at the scan when the total reached AgeLimit. Bit- and cycle-exact twin of
// controller/rl/reward.{h,cpp}.
//   sample accepted at edge X: bin of the sample (registered); X+1 RAM read; X+2 writes the
//   incremented count and registers the reward class (response after X+2)  -> 3 cycles
//   every Period-th sample then scans the bins (docs/rl.md "Reward unit"):
//     + LimW (the first limit) + 1 + Bins + F + (LimW + 1) * F' cycles,
//   F = the number of new thresholds above bin 0, F' = those among t1, t2.
//
// Scan: from the top bin down with a = the count of the bins above b (a running sum), test i
// holds at b when R_i * a <= L_i * T ((100 - P_i) / 100 = L_i / R_i reduced), i.e. when
// a <= Lim_i = floor(L_i * T / R_i). The tests are nested (P0 <= P1 <= P2) and monotone in b, so
// only the strictest test still holding is checked, against one limit register: while it holds
// every threshold up to it follows b; when it fails, the next test's limit is computed by a
// serial restoring division (LimW cycles, no multiplier) and, after one cycle forming the slack
// below, the same bin is tested again. The test is the sign of a slack register lim - a, which the
// scan decrements by each count (fmax: one subtractor after the RAM, no comparator behind it).
module qrl_reward #(
  parameter int unsigned InW = 32,
  parameter int unsigned SubBits = 3,
  parameter int unsigned Period = 1024,
  parameter int unsigned P0 = 70,
  parameter int unsigned P1 = 90,
  parameter int unsigned P2 = 99,
  parameter int unsigned AgeLimit = 32768,
  parameter int unsigned QW = 16,
  parameter int unsigned Bins = (InW - SubBits + 1) << SubBits,
  parameter int unsigned BinW = $clog2(Bins + 1),
  parameter int unsigned EW = $clog2(InW)
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic [4*QW-1:0] cfg_values_i,  // {v3, v2, v1, v0}
  input  logic            rwd_valid_i,
  output logic            rwd_ready_o,
  input  logic [ InW-1:0] rwd_sample_i,
  output logic            rwd_rsp_valid_o,
  // with the response: the class came from thresholds of a scan (0 in the warm-up, the first
  // Period samples, whose class is always 0)
  output logic            rwd_scanned_o,
  output logic [  QW-1:0] rwd_value_o,
  output logic [BinW-1:0] rwd_bin_o,
  output logic            idle_o
);
  localparam int unsigned CW = 16;  // count width (a count never exceeds the total)
  // total < AgeLimit + Period (a scan with total >= AgeLimit halves it)
  localparam int unsigned TW = $clog2(AgeLimit + Period);
  localparam logic [BinW-1:0] BinsB = BinW'(Bins);
  localparam logic [BinW-1:0] LastBin = BinW'(Bins - 1);
  localparam logic [TW-1:0] AgeLimitT = TW'(AgeLimit);
  localparam int unsigned G0 = gcd(100 - P0, 100);
  localparam int unsigned G1 = gcd(100 - P1, 100);
  localparam int unsigned G2 = gcd(100 - P2, 100);
  localparam int unsigned L0 = (100 - P0) / G0, R0 = 100 / G0;
  localparam int unsigned L1 = (100 - P1) / G1, R1 = 100 / G1;
  localparam int unsigned L2 = (100 - P2) / G2, R2 = 100 / G2;
  localparam int unsigned LMax = max3(L0, L1, L2);
  localparam int unsigned RMax = max3(R0, R1, R2);
  localparam int unsigned LimW = TW + $clog2(LMax + 1);  // L_i * T, then the quotient
  localparam int unsigned RemW = (RMax > 1) ? $clog2(RMax) : 1;  // remainder < R_i
  // the sample counter, also the division's step counter during a scan
  localparam int unsigned PerW = max3((Period > 1) ? $clog2(Period) : 1, $clog2(LimW), 1);
  localparam logic [PerW-1:0] PeriodM1 = PerW'(Period - 1);
  localparam logic [PerW-1:0] LastDivStep = PerW'(LimW - 1);

  function automatic int unsigned gcd(int unsigned x, int unsigned y);
    int unsigned a, b, t;
    a = x;
    b = y;
    for (int i = 0; i < 16; i++) begin
      if (b != 0) begin
        t = a % b;
        a = b;
        b = t;
      end
    end
    gcd = (a == 0) ? 1 : a;
  endfunction
  function automatic int unsigned max3(int unsigned a, int unsigned b, int unsigned c);
    int unsigned m;
    m = (a > b) ? a : b;
    max3 = (m > c) ? m : c;
  endfunction

  typedef enum logic [2:0] {
    StClear,
    StIdle,
    StRd,
    StInc,
    StDiv,
    StScanRd,
    StCmp,
    StScan
  } state_e;
  state_e st_d, st_q;

  // ---------------------------------------------------------------- bin of the sample
  // The leading one e (a one-hot from independent wide ORs of the bits above each position, not
  // a normalising shifter: fmax), the octave e - SubBits + 1 and the SubBits bits below it,
  // AND-OR selected by the one-hot.
  logic [InW-1:0] upper;  // upper[e] = some bit above e is set
  logic [EW-1:0] oct;
  logic [SubBits-1:0] sub;
  logic [BinW-1:0] bin;
  always_comb begin
    for (int unsigned e = 0; e < InW; e++) begin
      upper[e] = ((rwd_sample_i >> (e + 1)) != '0);
    end
    oct = '0;
    sub = '0;
    for (int unsigned e = SubBits; e < InW; e++) begin
      if (rwd_sample_i[e] && !upper[e]) begin
        oct = oct | EW'(e - SubBits + 1);
        sub = sub | rwd_sample_i[e-1-:SubBits];
      end
    end
    if (!upper[SubBits-1]) begin  // x < 2^SubBits (no bit above SubBits - 1; no comparator)
      bin = BinW'(rwd_sample_i);  // the exact bins
    end else begin
      bin = BinW'({oct, sub});
    end
  end
  logic unused_upper;
  assign unused_upper = ^upper[SubBits-1:0];

  // ---------------------------------------------------------------- histogram RAM
  logic re, we;
  logic [BinW-1:0] raddr, waddr;
  logic [CW-1:0] rdata, wdata;
  qrl_ram_1r1w #(
    .Depth(Bins),
    .Width(CW),
    .AddrW(BinW)
  ) u_hist (
    .clk_i  (clk_i),
    .re_i   (re),
    .raddr_i(raddr),
    .rdata_o(rdata),
    .we_i   (we),
    .wmask_i(1'b1),
    .waddr_i(waddr),
    .wdata_i(wdata)
  );

  // ---------------------------------------------------------------- state
  // b_q: the sample's bin (write address of the increment, rwd_bin_o), then the scan position
  // and the reset clear counter. since_q counts the division steps during a scan (it is 0 there).
  logic [BinW-1:0] t0_q, t1_q, t2_q, b_d, b_q, bm1;
  logic [TW-1:0] total_d, total_q, above_d, above_q;
  logic [BinW-1:0] odd_d, odd_q;  // bins with an odd count (aging: new total = (T - odd) / 2)
  logic [PerW-1:0] since_d, since_q;
  logic [LimW-1:0] lim_d, lim_q, lim_load;
  logic [RemW-1:0] rem_d, rem_q;
  logic [RemW:0] rem2, rdiv, rsub;
  logic [1:0] i_d, i_q;  // the strictest test still holding
  logic done_d, done_q;  // all three thresholds found
  logic scan_pend_d, scan_pend_q, rsp_valid_d, rsp_valid_q, aging, holds;
  logic signed [LimW:0] slack_d, slack_q;  // lim - above (holds: >= 0)
  logic [2:0] t_en;  // thresholds following b
  logic [1:0] cls_d, cls_q;  // reward class of the last sample (value = cfg_values_i[cls])
  logic scanned_d, scanned_q;  // a scan has started (the thresholds are a scan's from then on)
  logic cls_rdy_d, cls_rdy_q;  // the last sample's class came from a scan's thresholds
  logic [TW-1:0] halved_total;
  logic unused_halved, unused_rsub;

  assign rwd_ready_o = (st_q == StIdle);
  assign aging = total_q >= AgeLimitT;
  assign bm1 = b_q - 1'b1;
  assign halved_total = total_q - TW'(odd_q);
  assign unused_halved = halved_total[0];
  assign unused_rsub = rsub[RemW];  // rem2 < 2 R_i: the difference fits RemW bits
  assign holds = !slack_q[LimW];
  logic signed [LimW:0] slack_lim;  // lim - above from the registers
  assign slack_lim = $signed({1'b0, lim_q}) - $signed({{(LimW + 1 - TW) {1'b0}}, above_q});

  // L_i * T, R_i of test i (the division's dividend and divisor). The dividend is loaded for
  // test 2 at StInc and for test i_q - 1 in StScan: selected from registers, not from i_d (fmax:
  // the scan's control is off the path into the limit and the registered comparison).
  logic [1:0] i_ld;
  assign i_ld = (st_q == StInc) ? 2'd2 : i_q - 1'b1;
  always_comb begin
    unique case (i_ld)
      2'd0: lim_load = LimW'(total_q) * LimW'(L0);
      2'd1: lim_load = LimW'(total_q) * LimW'(L1);
      default: lim_load = LimW'(total_q) * LimW'(L2);
    endcase
    unique case (i_q)
      2'd0: rdiv = (RemW + 1)'(R0);
      2'd1: rdiv = (RemW + 1)'(R1);
      default: rdiv = (RemW + 1)'(R2);
    endcase
    rem2 = {rem_q, lim_q[LimW-1]};
    rsub = rem2 - rdiv;
  end

  always_comb begin
    st_d = st_q;
    b_d = b_q;
    total_d = total_q;
    above_d = above_q;
    odd_d = odd_q;
    since_d = since_q;
    lim_d = lim_q;
    rem_d = rem_q;
    i_d = i_q;
    done_d = done_q;
    slack_d = slack_q;
    t_en = 3'b000;
    scan_pend_d = scan_pend_q;
    rsp_valid_d = 1'b0;
    cls_d = cls_q;
    scanned_d = scanned_q;
    cls_rdy_d = cls_rdy_q;
    re = 1'b0;
    raddr = b_q;
    we = 1'b0;
    waddr = b_q;
    wdata = rdata + 1'b1;

    unique case (st_q)
      StClear: begin
        we = 1'b1;
        wdata = '0;
        b_d = b_q + 1'b1;
        if (b_q == LastBin) begin
          b_d = '0;
          st_d = StIdle;
        end
      end
      StIdle: begin
        if (rwd_valid_i) begin
          b_d = bin;  // registered: the RAM address is a register (fmax)
          total_d = total_q + 1'b1;
          if (since_q == PeriodM1) begin
            since_d = '0;
            scan_pend_d = 1'b1;
          end else begin
            since_d = since_q + 1'b1;
          end
          st_d = StRd;
        end
      end
      StRd: begin
        re = 1'b1;
        st_d = StInc;
      end
      StInc: begin
        we = 1'b1;  // waddr = b_q, wdata = rdata + 1
        rsp_valid_d = 1'b1;
        if (b_q < t0_q) cls_d = 2'd0;
        else if (b_q < t1_q) cls_d = 2'd1;
        else if (b_q < t2_q) cls_d = 2'd2;
        else cls_d = 2'd3;
        cls_rdy_d = scanned_q;
        if (scan_pend_q) begin
          scanned_d = 1'b1;  // no sample is accepted before the scan ends
          // the first limit, of the strictest test
          scan_pend_d = 1'b0;
          i_d = 2'd2;
          done_d = 1'b0;
          above_d = '0;
          odd_d = '0;
          lim_d = lim_load;
          rem_d = '0;
          st_d = StDiv;
        end else begin
          st_d = StIdle;
        end
      end
      StDiv: begin
        // restoring division step: {rem, lim} <<= 1; subtract R_i when it fits (quotient bit)
        if (rem2 >= rdiv) begin
          rem_d = rsub[RemW-1:0];
          lim_d = {lim_q[LimW-2:0], 1'b1};
        end else begin
          rem_d = rem2[RemW-1:0];
          lim_d = {lim_q[LimW-2:0], 1'b0};
        end
        since_d = since_q + 1'b1;
        if (since_q == LastDivStep) begin
          since_d = '0;
          // the first division of a scan goes on to read the top bin; a later one re-tests b
          // after forming the slack
          st_d = (i_q == 2'd2) ? StScanRd : StCmp;
        end
      end
      StScanRd: begin
        re = 1'b1;
        raddr = LastBin;
        b_d = LastBin;
        slack_d = slack_lim;
        st_d = StScan;
      end
      StCmp: begin
        slack_d = slack_lim;
        st_d = StScan;
      end
      StScan: begin
        if (!done_q && !holds) begin
          // test i fails at b: its threshold stays b + 1; the next test, same bin
          if (i_q == 2'd0) begin
            done_d = 1'b1;
          end else begin
            i_d = i_q - 1'b1;
            lim_d = lim_load;
            rem_d = '0;
            st_d = StDiv;
          end
        end else begin
          if (!done_q) t_en = {i_q == 2'd2, i_q != 2'd0, 1'b1};
          above_d = above_q + TW'(rdata);
          slack_d = slack_q - $signed({{(LimW + 1 - CW) {1'b0}}, rdata});
          if (aging) begin
            we = 1'b1;
            wdata = {1'b0, rdata[CW-1:1]};
            odd_d = odd_q + BinW'(rdata[0]);
          end
          if (b_q == '0) begin
            if (aging) total_d = {1'b0, halved_total[TW-1:1]};
            st_d = StIdle;
          end else begin
            re = 1'b1;
            raddr = bm1;
            b_d = bm1;
          end
        end
      end
      default: st_d = StIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q <= StClear;
      t0_q <= BinsB;
      t1_q <= BinsB;
      t2_q <= BinsB;
      b_q <= '0;
      total_q <= '0;
      above_q <= '0;
      odd_q <= '0;
      since_q <= '0;
      lim_q <= '0;
      rem_q <= '0;
      i_q <= '0;
      done_q <= 1'b0;
      scan_pend_q <= 1'b0;
      rsp_valid_q <= 1'b0;
      cls_q <= '0;
      scanned_q <= 1'b0;
      cls_rdy_q <= 1'b0;
      slack_q <= '0;
    end else begin
      st_q <= st_d;
      if (t_en[0]) t0_q <= b_q;
      if (t_en[1]) t1_q <= b_q;
      if (t_en[2]) t2_q <= b_q;
      b_q <= b_d;
      total_q <= total_d;
      above_q <= above_d;
      odd_q <= odd_d;
      since_q <= since_d;
      lim_q <= lim_d;
      rem_q <= rem_d;
      i_q <= i_d;
      done_q <= done_d;
      scan_pend_q <= scan_pend_d;
      rsp_valid_q <= rsp_valid_d;
      cls_q <= cls_d;
      scanned_q <= scanned_d;
      cls_rdy_q <= cls_rdy_d;
      slack_q <= slack_d;
    end
  end

  assign rwd_rsp_valid_o = rsp_valid_q;
  assign rwd_value_o = cfg_values_i[cls_q*QW+:QW];
  assign rwd_bin_o = b_q;
  assign rwd_scanned_o = cls_rdy_q;
  assign idle_o = (st_q == StIdle);
endmodule
