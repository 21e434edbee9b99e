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
  localparam int unsigned MW = TW + 7;  // x100 products
  localparam int unsigned PerW = $clog2(Period + 1);
  localparam logic [BinW-1:0] BinsB = BinW'(Bins);
  localparam logic [BinW-1:0] LastBin = BinW'(Bins - 1);
  localparam logic [PerW-1:0] PeriodM1 = PerW'(Period - 1);
  localparam logic [TW-1:0] AgeLimitT = TW'(AgeLimit);
  localparam logic [6:0] P0B = 7'(P0);
  localparam logic [6:0] P1B = 7'(P1);
  localparam logic [6:0] P2B = 7'(P2);

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
    .waddr_i(waddr),
    .wdata_i(wdata)
  );

  // ---------------------------------------------------------------- state
  logic [BinW-1:0] t0_d, t0_q, t1_d, t1_q, t2_d, t2_q, b_d, b_q, cnt_d, cnt_q;
  logic [TW-1:0] total_d, total_q, cum_d, cum_q, ntot_d, ntot_q;
  logic [PerW-1:0] since_d, since_q;
  logic [2:0] found_d, found_q;
  logic scan_pend_d, scan_pend_q, rsp_valid_d, rsp_valid_q;
  logic [QW-1:0] value_d, value_q;
  logic [BinW-1:0] rbin_d, rbin_q;
  logic accept, aging;
  logic [MW-1:0] cum100, n0, n1, n2;
  logic [CW-1:0] half;

  assign rwd_ready_o = (st_q == StIdle);
  assign accept = rwd_valid_i && rwd_ready_o;
  assign aging = total_q >= AgeLimitT;
  assign cum100 = MW'(cum_d) * MW'(100);
  assign n0 = MW'(total_q) * MW'(P0B);
  assign n1 = MW'(total_q) * MW'(P1B);
  assign n2 = MW'(total_q) * MW'(P2B);
  assign half = {1'b0, rdata[CW-1:1]};

  always_comb begin
    st_d = st_q;
    t0_d = t0_q;
    t1_d = t1_q;
    t2_d = t2_q;
    b_d = b_q;
    cnt_d = cnt_q;
    total_d = total_q;
    cum_d = cum_q;
    ntot_d = ntot_q;
    since_d = since_q;
    found_d = found_q;
    scan_pend_d = scan_pend_q;
    rsp_valid_d = 1'b0;
    value_d = value_q;
    rbin_d = rbin_q;
    re = 1'b0;
    raddr = bin;
    we = 1'b0;
    waddr = b_q;
    wdata = (rdata == {CW{1'b1}}) ? rdata : rdata + 1'b1;

    unique case (st_q)
      StClear: begin
        we = 1'b1;
        waddr = cnt_q;
        wdata = '0;
        cnt_d = cnt_q + 1'b1;
        if (cnt_q == LastBin) begin
          cnt_d = '0;
          st_d = StIdle;
        end
      end
      StIdle: begin
        if (accept) begin
          re = 1'b1;
          raddr = bin;
          b_d = bin;
          rbin_d = bin;
          rsp_valid_d = 1'b1;
          if (bin < t0_q) value_d = cfg_values_i[0*QW+:QW];
          else if (bin < t1_q) value_d = cfg_values_i[1*QW+:QW];
          else if (bin < t2_q) value_d = cfg_values_i[2*QW+:QW];
          else value_d = cfg_values_i[3*QW+:QW];
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
          cnt_d = '0;
          cum_d = '0;
          ntot_d = '0;
          found_d = '0;
          st_d = StScan;
        end else begin
          st_d = StIdle;
        end
      end
      StScan: begin
        // Read bin cnt (while cnt < Bins); account bin cnt-1 (read at the previous edge).
        if (cnt_q < BinsB) begin
          re = 1'b1;
          raddr = cnt_q;
        end
        if (cnt_q != '0) begin
          cum_d = cum_q + TW'(rdata);
          if (!found_q[0] && (cum100 >= n0)) begin
            found_d[0] = 1'b1;
            t0_d = cnt_q - 1'b1;
          end
          if (!found_q[1] && (cum100 >= n1)) begin
            found_d[1] = 1'b1;
            t1_d = cnt_q - 1'b1;
          end
          if (!found_q[2] && (cum100 >= n2)) begin
            found_d[2] = 1'b1;
            t2_d = cnt_q - 1'b1;
          end
          if (aging) begin
            we = 1'b1;
            waddr = cnt_q - 1'b1;
            wdata = half;
            ntot_d = ntot_q + TW'(half);
          end
        end
        cnt_d = cnt_q + 1'b1;
        if (cnt_q == BinsB) begin
          cnt_d = '0;
          if (aging) total_d = ntot_d;
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
      cnt_q <= '0;
      total_q <= '0;
      cum_q <= '0;
      ntot_q <= '0;
      since_q <= '0;
      found_q <= '0;
      scan_pend_q <= 1'b0;
      rsp_valid_q <= 1'b0;
      value_q <= '0;
      rbin_q <= '0;
    end else begin
      st_q <= st_d;
      t0_q <= t0_d;
      t1_q <= t1_d;
      t2_q <= t2_d;
      b_q <= b_d;
      cnt_q <= cnt_d;
      total_q <= total_d;
      cum_q <= cum_d;
      ntot_q <= ntot_d;
      since_q <= since_d;
      found_q <= found_d;
      scan_pend_q <= scan_pend_d;
      rsp_valid_q <= rsp_valid_d;
      value_q <= value_d;
      rbin_q <= rbin_d;
    end
  end

  assign rwd_rsp_valid_o = rsp_valid_q;
  assign rwd_value_o = value_q;
  assign rwd_bin_o = rbin_q;
  assign idle_o = (st_q == StIdle);
endmodule
