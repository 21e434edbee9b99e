// Percentile reward unit: log2-spaced histogram (2^SubBits sub-bins per octave) in a RAM,
// thresholds at the P0/P1/P2 percentiles recomputed by a sequential scan every Period samples,
// counts halved at the scan when the total reached AgeLimit. Bit- and cycle-exact twin of
// controller/rl/reward.{h,cpp}.
//   sample accepted at edge X: reward from the current thresholds, response after X;
//   X+1 writes the incremented count                                     -> 2 cycles
//   every Period-th sample then scans the bins, one per cycle             -> + Bins + 1 cycles
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
  output logic [  QW-1:0] rwd_value_o,
  output logic [BinW-1:0] rwd_bin_o,
  output logic            idle_o
);
  localparam int unsigned CW = 16;  // count width
  localparam int unsigned TW = CW + 2;  // total / cumulative width
  localparam int unsigned PerW = (Period > 1) ? $clog2(Period) : 1;
  localparam logic [BinW-1:0] BinsB = BinW'(Bins);
  localparam logic [BinW-1:0] LastBin = BinW'(Bins - 1);
  localparam logic [PerW-1:0] PeriodM1 = PerW'(Period - 1);
  localparam logic [TW-1:0] AgeLimitT = TW'(AgeLimit);
  // Percentile test in the "above" form: with a = count of the bins above b and T = total,
  // 100 * (T - a) >= p * T  <=>  (100 - p) * T >= 100 * a  <=>  L * T >= R * a  (L/R reduced).
  localparam int unsigned G0 = gcd(100 - P0, 100);
  localparam int unsigned G1 = gcd(100 - P1, 100);
  localparam int unsigned G2 = gcd(100 - P2, 100);
  localparam int unsigned L0 = (100 - P0) / G0, R0 = 100 / G0;
  localparam int unsigned L1 = (100 - P1) / G1, R1 = 100 / G1;
  localparam int unsigned L2 = (100 - P2) / G2, R2 = 100 / G2;
  localparam int unsigned MW = TW + 7;  // products of a count with <= 100

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

  typedef enum logic [1:0] {
    StClear,
    StIdle,
    StInc,
    StScan
  } state_e;
  state_e st_d, st_q;

  // ---------------------------------------------------------------- bin of the sample
  logic [EW-1:0] msb;
  logic [InW-1:0] shifted;
  logic [BinW-1:0] bin;
  logic unused_shifted;
  assign unused_shifted = ^shifted[InW-1:SubBits];
  always_comb begin
    msb = '0;
    for (int unsigned i = 0; i < InW; i++) begin
      if (rwd_sample_i[i]) begin
        msb = i[EW-1:0];
      end
    end
    shifted = rwd_sample_i >> (msb - EW'(SubBits));
    if (rwd_sample_i < InW'(1 << SubBits)) begin
      bin = BinW'(rwd_sample_i);
    end else begin
      bin = BinW'({(msb - EW'(SubBits) + 1'b1), shifted[SubBits-1:0]});
    end
  end

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
  // and the reset clear counter. The scan runs from the top bin down, so that "above" is a
  // running sum and the last bin meeting a percentile test is its threshold (no found flags).
  logic [BinW-1:0] t0_d, t0_q, t1_d, t1_q, t2_d, t2_q, b_d, b_q, bm1;
  logic [TW-1:0] total_d, total_q, above_d, above_q;
  logic [BinW-1:0] odd_d, odd_q;  // bins with an odd count (aging: new total = (T - odd) / 2)
  logic [PerW-1:0] since_d, since_q;
  logic scan_pend_d, scan_pend_q, rsp_valid_d, rsp_valid_q, aging;
  logic [1:0] cls_d, cls_q;  // reward class of the last sample (value = cfg_values_i[cls])
  logic [MW-1:0] lt0, lt1, lt2, ra0, ra1, ra2;
  logic [CW-1:0] half;
  logic [TW-1:0] halved_total;
  logic unused_halved;

  assign rwd_ready_o = (st_q == StIdle);
  assign aging = total_q >= AgeLimitT;
  assign bm1 = b_q - 1'b1;
  assign lt0 = MW'(total_q) * MW'(L0);
  assign lt1 = MW'(total_q) * MW'(L1);
  assign lt2 = MW'(total_q) * MW'(L2);
  assign ra0 = MW'(above_q) * MW'(R0);
  assign ra1 = MW'(above_q) * MW'(R1);
  assign ra2 = MW'(above_q) * MW'(R2);
  assign half = {1'b0, rdata[CW-1:1]};
  assign halved_total = total_q - TW'(odd_q);
  assign unused_halved = halved_total[0];

  always_comb begin
    st_d = st_q;
    t0_d = t0_q;
    t1_d = t1_q;
    t2_d = t2_q;
    b_d = b_q;
    total_d = total_q;
    above_d = above_q;
    odd_d = odd_q;
    since_d = since_q;
    scan_pend_d = scan_pend_q;
    rsp_valid_d = 1'b0;
    cls_d = cls_q;
    re = 1'b0;
    raddr = bin;
    we = 1'b0;
    waddr = b_q;
    wdata = (rdata == {CW{1'b1}}) ? rdata : rdata + 1'b1;

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
          re = 1'b1;
          b_d = bin;
          rsp_valid_d = 1'b1;
          if (bin < t0_q) cls_d = 2'd0;
          else if (bin < t1_q) cls_d = 2'd1;
          else if (bin < t2_q) cls_d = 2'd2;
          else cls_d = 2'd3;
          total_d = total_q + 1'b1;
          if (since_q == PeriodM1) begin
            since_d = '0;
            scan_pend_d = 1'b1;
          end else begin
            since_d = since_q + 1'b1;
          end
          st_d = StInc;
        end
      end
      StInc: begin
        we = 1'b1;  // waddr = b_q, wdata = saturating rdata + 1
        if (scan_pend_q) begin
          scan_pend_d = 1'b0;
          b_d = BinsB;
          above_d = '0;
          odd_d = '0;
          st_d = StScan;
        end else begin
          st_d = StIdle;
        end
      end
      StScan: begin
        // Read bin b-1 (while b > 0); account bin b (read at the previous edge) unless b = Bins.
        if (b_q != '0) begin
          re = 1'b1;
          raddr = bm1;
        end
        if (b_q != BinsB) begin
          above_d = above_q + TW'(rdata);
          if (lt0 >= ra0) t0_d = b_q;
          if (lt1 >= ra1) t1_d = b_q;
          if (lt2 >= ra2) t2_d = b_q;
          if (aging) begin
            we = 1'b1;
            wdata = half;
            odd_d = odd_q + BinW'(rdata[0]);
          end
        end
        b_d = bm1;
        if (b_q == '0) begin
          if (aging) total_d = {1'b0, halved_total[TW-1:1]};
          st_d = StIdle;
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
      scan_pend_q <= 1'b0;
      rsp_valid_q <= 1'b0;
      cls_q <= '0;
    end else begin
      st_q <= st_d;
      t0_q <= t0_d;
      t1_q <= t1_d;
      t2_q <= t2_d;
      b_q <= b_d;
      total_q <= total_d;
      above_q <= above_d;
      odd_q <= odd_d;
      since_q <= since_d;
      scan_pend_q <= scan_pend_d;
      rsp_valid_q <= rsp_valid_d;
      cls_q <= cls_d;
    end
  end

  assign rwd_rsp_valid_o = rsp_valid_q;
  assign rwd_value_o = cfg_values_i[cls_q*QW+:QW];
  assign rwd_bin_o = b_q;
  assign idle_o = (st_q == StIdle);
endmodule
