// Percentile reward unit: log2-spaced histogram (2^SubBits sub-bins per octave) in a RAM,
// thresholds at the P0/P1/P2 percentiles recomputed by a sequential scan every Period samples,
// counts halved at the scan when the total reached AgeLimit. Bit- and cycle-exact twin of
// controller/rl/reward.{h,cpp}. Small-area design (docs/rl.md "Reward unit"): one adder, no
// threshold registers, no divider.
//
// RAM: Bins + 1 words of {nz, class[1:0], count[CW-1:0]}: word b < Bins is bin b's count and
// the reward class of a sample in bin b (the number of thresholds <= b, written by the scan; 0
// after reset = every sample earns values[0]); word Bins (TAddr) holds the total T. nz = count
// != 0, written with the count (fmax: the scan's tests of a bin's count are one RAM output bit;
// T's nz is never read).
//   sample accepted at edge X: bin of the sample (registered); X+1 read the bin; X+2 write the
//   incremented count, register the class (response after X+2), read T; X+3 write T + 1
//   -> 4 cycles; every Period-th sample then scans the bins (below).
//
// Scan, from the top bin down, the strictest test still holding (i) checked at each bin b:
// test i holds at b when 100 * above(b) <= (100 - P_i) * T, above(b) = the count of the bins
// above b, i.e. when S = (100 - P_i) * T - 100 * above(b) >= 0 (the sign of one register, S).
// Multiplications by constants are shift-and-add operations on S, one per set bit of the
// constant (one adder, a 3-stage shifter on the RAM's output):
//   start: S = (100 - P2) * (T + 1)   (ops(100 - P2) cycles, T + 1 = the total with the sample)
//   bin b, test holds (or all found): class of b written (with the halved count when aging);
//     count > 0 and not all found: S -= 100 * count (the visit's cycle + 2 more)
//   bin b, test i fails: i = 0: all found (1 cycle); else read T, S += (P_i - P_{i-1}) * T
//     (1 + ops(P_i - P_{i-1}) cycles), the same bin again
// ops(C) = max(1, popcount(C)). Aging (T >= AgeLimit at the scan): the counts are halved as the
// scan writes them, then a second pass sums them into T (Bins cycles).
// LogReward (the design knob rl_reward log): the response's value is -bin(x) / 2^SubBits in Q.8
// (minus log2 of the sample in 1/2^SubBits octaves), ready from the first sample
// (controller/rl/reward.cpp PercentileReward::classify); the histogram and scans run unchanged.
module qrl_reward #(
  parameter bit LogReward = 1'b0,
  parameter int unsigned QW = qrl_pkg::QW,
  parameter int unsigned BinW = qrl_pkg::BinW
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic [4*QW-1:0] cfg_values_i,  // {v3, v2, v1, v0}
  input  logic            rwd_valid_i,
  output logic            rwd_ready_o,
  input  logic [qrl_pkg::InW-1:0] rwd_sample_i,
  output logic            rwd_rsp_valid_o,
  // with the response: the class came from a scan (0 in the warm-up, the first Period samples,
  // whose class is always 0)
  output logic            rwd_scanned_o,
  output logic [  QW-1:0] rwd_value_o,
  output logic [BinW-1:0] rwd_bin_o,
  output logic            idle_o
);
  localparam int unsigned InW = qrl_pkg::InW;
  localparam int unsigned SubBits = qrl_pkg::SubBits;
  localparam int unsigned Bins = qrl_pkg::Bins;
  localparam int unsigned EW = $clog2(InW);
  localparam int unsigned Period = qrl_pkg::Period;
  localparam int unsigned P0 = qrl_pkg::P0;
  localparam int unsigned P1 = qrl_pkg::P1;
  localparam int unsigned P2 = qrl_pkg::P2;
  localparam int unsigned AgeLimit = qrl_pkg::AgeLimit;
  localparam int unsigned CW = 16;  // count width (a count and T are < AgeLimit + Period)
  localparam int unsigned RW = CW + 3;  // RAM word: {nz, class, count}
  // |S| <= 100 * T, T < AgeLimit + Period
  localparam int unsigned SW = $clog2(100 * (AgeLimit + Period) + 1) + 1;
  localparam logic [BinW-1:0] TAddr = BinW'(Bins);
  localparam logic [BinW-1:0] LastBin = BinW'(Bins - 1);
  localparam logic [CW-1:0] AgeLimitC = CW'(AgeLimit);
  localparam int unsigned CInit = 100 - P2;
  localparam bit AnyZero = (CInit == 0) || (P1 == P0) || (P2 == P1);  // an empty operation
  localparam logic [SW-1:0] CInitS = SW'(CInit);
  // the sample counter, also the step counter of the shift-and-add operations during a scan
  localparam int unsigned PerW = ($clog2(Period) < 8) ? 8 : $clog2(Period);
  localparam logic [PerW-1:0] PeriodM1 = PerW'(Period - 1);

  // Operation sequences: 0 = a bin (C = 100, subtract), 1 = the start (100 - P2), 2 = the switch
  // to test 0 (P1 - P0), 3 = the switch to test 1 (P2 - P1). Entry k: {operand on, last, shift}.
  function automatic int unsigned seq_const(int unsigned s);
    unique case (s)
      0: seq_const = 100;
      1: seq_const = 100 - P2;
      2: seq_const = P1 - P0;
      default: seq_const = P2 - P1;
    endcase
  endfunction
  function automatic logic [4:0] op_info(int unsigned s, int unsigned k);
    int unsigned c, n, m;
    logic [4:0] r;
    c = seq_const(s);
    n = 0;
    r = 5'b0;
    for (int unsigned p = 0; p < 7; p++) begin
      if (((c >> p) & 1) != 0) begin
        if (n == k) r = {1'b1, 1'b0, 3'(p)};
        n = n + 1;
      end
    end
    m = (n == 0) ? 1 : n;  // ops(C) = max(1, popcount(C)); C = 0: one empty operation
    if (k + 1 >= m) begin  // the last (entries past it, never used, repeat it)
      r[3] = 1'b1;
      n = 0;
      for (int unsigned p = 0; p < 7; p++) begin
        if (((c >> p) & 1) != 0) begin
          if (n + 1 == m) r[2:0] = 3'(p);
          n = n + 1;
        end
      end
      r[4] = (c != 0);
    end
    op_info = r;
  endfunction
  // The ROM is indexed by the sequence and the low KW bits of the operation index (no sequence
  // has more than 2^KW operations; fmax: 2 + KW inputs per ROM bit, one LUT level at KW = 2).
  function automatic int unsigned max_ops();
    int unsigned m, n;
    m = 1;
    for (int unsigned q = 0; q < 4; q++) begin
      n = 0;
      for (int unsigned b = 0; b < 7; b++) n = n + ((seq_const(q) >> b) & 1);
      if (n > m) m = n;
    end
    max_ops = m;
  endfunction
  localparam int unsigned KW = (max_ops() > 1) ? $clog2(max_ops()) : 1;
  logic [4*(1<<KW)*5-1:0] op_rom;
  for (genvar s = 0; s < 4; s++) begin : g_seq
    for (genvar k = 0; k < (1 << KW); k++) begin : g_k
      localparam logic [4:0] Info = op_info(s, k);
      assign op_rom[(s*(1<<KW)+k)*5+:5] = Info;
    end
  end

  typedef enum logic [3:0] {
    StClear,
    StIdle,
    StRd,
    StInc,
    StIncT,
    StOps,
    StScan,
    StAge,
    StAgeWr
  } state_e;
  state_e st_d, st_q;

  // ---------------------------------------------------------------- bin of the sample
  // Normalising shifter: the leading one moved to the top in five stages (16, 8, 4, 2, 1), the
  // shift amounts giving the octave, the SubBits bits below the top the sub-bin.
  localparam int unsigned NW = 32;
  logic [NW-1:0] nx;
  logic [4:0] sh, e5;
  logic [EW:0] oct;
  logic [SubBits-1:0] sub;
  logic [BinW-1:0] bin;
  logic [NW-1:0] n16, n8, n4, n2;
  always_comb begin
    n16 = NW'(rwd_sample_i);
    sh[4] = (n16[NW-1-:16] == '0);
    n8 = sh[4] ? (n16 << 16) : n16;
    sh[3] = (n8[NW-1-:8] == '0);
    n4 = sh[3] ? (n8 << 8) : n8;
    sh[2] = (n4[NW-1-:4] == '0);
    n2 = sh[2] ? (n4 << 4) : n4;
    sh[1] = (n2[NW-1-:2] == '0);
    nx = sh[1] ? (n2 << 2) : n2;
    sh[0] = !nx[NW-1];
    if (sh[0]) nx = nx << 1;
    sub = nx[NW-2-:SubBits];
    // e - SubBits + 1 = e - 2, e = 31 - sh = ~sh (5 bits): the decrement of e[4:1] written as
    // gates (as a '-' it mapped onto the iCE40 carry chain at the end of the accept cycle's
    // longest path, fmax); e >= 3 here (the exact bins below are selected otherwise)
    e5 = ~sh;
    if (SubBits == 3 && EW == 5) begin
      oct = {1'b0, e5[4] ^ !(e5[3] || e5[2] || e5[1]), e5[3] ^ !(e5[2] || e5[1]),
             e5[2] ^ !e5[1], !e5[1], e5[0]};
    end else begin  // other sizes: the subtraction
      oct = (EW + 1)'(NW - 1 - SubBits + 1) - (EW + 1)'(sh);
    end
    // the exact bins: x < 2^SubBits, i.e. e < SubBits, sh > 31 - SubBits (for the default
    // sizes a test of sh, not a zero test of the sample's 29 upper bits: area)
    if ((SubBits == 3 && EW == 5) ? (sh[4] && sh[3] && sh[2] && (sh[1] || sh[0]))
                                  : (rwd_sample_i[InW-1:SubBits] == '0)) begin
      bin = BinW'(rwd_sample_i);  // the exact bins
    end else begin
      bin = BinW'({oct, sub});
    end
  end
  logic unused_nx;
  assign unused_nx = ^{nx[NW-1], nx[NW-2-SubBits:0]};

  // ---------------------------------------------------------------- histogram RAM
  logic re, we;
  logic [BinW-1:0] raddr, waddr;
  logic [RW-1:0] rdata, wdata;
  qrl_ram_1r1w #(
    .Depth(Bins + 1),
    .Width(RW),
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
  logic [CW-1:0] cnt;
  logic [1:0] rcls;
  logic rnz;  // count != 0, stored with it (fmax: no zero test of the RAM's output in the scan)
  assign {rnz, rcls, cnt} = rdata;

  // ---------------------------------------------------------------- state
  logic [BinW-1:0] b_d, b_q, bm1;
  logic [SW-1:0] s_d, s_q;  // S, signed; rotated right one bit per cycle by a serial operation
  logic c_d, c_q;  // the serial adder's carry
  // the sample counter; during a scan (0 there) the serial step j (bits 4:0) and the operation
  // index k (bits 7:5)
  logic [PerW-1:0] since_d, since_q;
  logic [1:0] i_d, i_q;  // the strictest test still holding
  logic [1:0] seq_d, seq_q;  // the operation sequence of StOps
  logic done_d, done_q;  // all three thresholds found
  logic aging_d, aging_q;  // this scan halves the counts
  logic [1:0] cls_d, cls_q;  // reward class of the last sample (value = cfg_values_i[cls])
  logic scanned_d, scanned_q;  // a scan has started (the classes are a scan's from then on)
  logic [CW-1:0] inc;  // count + 1, T + 1

  assign rwd_ready_o = (st_q == StIdle);
  assign bm1 = b_q - 1'b1;
  assign inc = cnt + 1'b1;

  // ---------------------------------------------------------------- the serial adder
  // One bit per cycle, LSB first: S <- S + ((cnt << p) ^ sub) + sub over SW cycles (j = 0 ..
  // SW - 1), the sum bit entering S at the top; after SW cycles S is aligned again (its sign
  // is the scan's test).
  logic [4:0] j;
  logic [KW-1:0] k;
  logic [2:0] p;
  logic [4:0] op;  // {operand on, last, shift} of operation k of the sequence
  logic [5:0] xi;  // j - p
  logic ser_sub, x_bit, b_in, ci, sum_bit, j_last;
  assign j = since_q[4:0];
  assign k = since_q[5+:KW];
  assign op = op_rom[{seq_q, k}*5+:5];
  assign j_last = (j == 5'(SW - 1));
  // The aging pass adds each halved count once (shift 0): with 100 - P2 = 1 that is sequence 1's
  // one operation, so the pass runs with seq = 1 and the operand's shift and sign come from the
  // sequence alone (fmax: no state decode in front of the serial adder).
  localparam bit AgeIsSeq1 = (CInit == 1);
  logic age_st;
  assign age_st = !AgeIsSeq1 && (st_q == StAge);
  always_comb begin
    p = age_st ? 3'd0 : op[2:0];
    ser_sub = !age_st && (seq_q == 2'd0);
    xi = {1'b0, j} - {3'b0, p};
    x_bit = !xi[5] && !xi[4] && cnt[xi[3:0]] && (!AnyZero || (st_q == StAge) || op[4]);
    b_in = x_bit ^ ser_sub;
    ci = (j == '0) ? ser_sub : c_q;
    sum_bit = s_q[0] ^ b_in ^ ci;
    c_d = (s_q[0] & b_in) | (ci & (s_q[0] ^ b_in));
  end

  // adv: the end of a bin (the next one, or the end of the pass); step: a serial step
  logic adv, step;
  always_comb begin
    st_d = st_q;
    b_d = b_q;
    s_d = s_q;
    since_d = since_q;
    i_d = i_q;
    seq_d = seq_q;
    done_d = done_q;
    aging_d = aging_q;
    cls_d = rcls;  // loaded at every edge (no enable): read only in the response cycle
    scanned_d = scanned_q;
    re = 1'b0;
    raddr = b_q;  // from registers only (fmax: not behind the sample's bin)
    we = 1'b0;
    waddr = b_q;
    wdata = {1'b1, rcls, inc};  // count + 1 > 0 (T's nz is never read)
    adv = 1'b0;
    step = (st_q == StOps) || (st_q == StAge && rnz);
    if (step) begin
      s_d = {sum_bit, s_q[SW-1:1]};
      // j + 1, or j = 0 and k + 1 (the end of a sequence and StAgeWr clear the counter)
      since_d = j_last ? PerW'({since_q[7:5] + 3'd1, 5'b0}) : since_q + 1'b1;
    end

    unique case (st_q)
      StClear: begin
        we = 1'b1;
        wdata = '0;
        b_d = bm1;
        if (b_q == '0) st_d = StIdle;
      end
      StIdle: begin
        if (rwd_valid_i) begin
          // b_d = bin: the last select of b_q's input, below (fmax)
          since_d = (since_q == PeriodM1) ? '0 : since_q + 1'b1;  // wrapped: a scan follows
          st_d = StRd;
        end
      end
      StRd: begin
        re = 1'b1;
        st_d = StInc;
      end
      StInc: begin
        we = 1'b1;  // {class, count + 1}
        re = 1'b1;
        raddr = TAddr;
        st_d = StIncT;
      end
      StIncT: begin
        we = 1'b1;  // T + 1
        waddr = TAddr;
        st_d = StIdle;
        if (since_q == '0) begin  // the Period-th sample: scan
          scanned_d = 1'b1;  // no sample is accepted before the scan ends
          aging_d = inc >= AgeLimitC;
          s_d = CInitS;  // (100 - P2) * (T + 1) = the ops on T (on the RAM's output) + 100 - P2
          i_d = 2'd2;
          done_d = 1'b0;
          seq_d = 2'd1;
          st_d = StOps;
        end
      end
      StOps: begin
        if (j_last && op[3]) begin
          since_d = '0;
          st_d = StScan;
          unique case (seq_q)
            2'd0: adv = 1'b1;
            2'd1: begin  // the start: read the top bin
              re = 1'b1;
              raddr = LastBin;
              b_d = LastBin;
            end
            default: begin  // a switch: read the same bin again
              re = 1'b1;
            end
          endcase
        end
      end
      StScan: begin
        if (!done_q && s_q[SW-1]) begin
          // test i fails at b: its threshold stays b + 1; the next test, same bin
          if (i_q == 2'd0) begin
            done_d = 1'b1;
          end else begin
            i_d = i_q - 1'b1;
            seq_d = {1'b1, i_q[1]};  // i = 2 -> 3 (P2 - P1), i = 1 -> 2 (P1 - P0)
            re = 1'b1;
            raddr = TAddr;
            st_d = StOps;
          end
        end else begin
          we = 1'b1;
          wdata = {aging_q ? (cnt[CW-1:1] != '0) : rnz, done_q ? 2'd0 : i_q + 2'd1,
                   aging_q ? {1'b0, cnt[CW-1:1]} : cnt};
          if (!done_q && rnz) begin
            seq_d = 2'd0;  // S -= 100 * count
            st_d = StOps;
          end else begin
            adv = 1'b1;
          end
        end
      end
      StAge: begin
        // S += the halved count (skipped when 0)
        if (!rnz) begin
          adv = 1'b1;
        end else begin
          adv = j_last;
        end
      end
      StAgeWr: begin
        since_d = '0;
        we = 1'b1;
        waddr = TAddr;
        wdata = {1'b1, 2'b00, s_q[CW-1:0]};  // T (its nz is never read)
        st_d = StIdle;
      end
      default: st_d = StIdle;
    endcase

    if (adv) begin
      if (b_q == '0) begin
        st_d = StIdle;
        if (st_q == StAge) begin
          st_d = StAgeWr;
        end else if (aging_q) begin
          re = 1'b1;
          raddr = LastBin;
          b_d = LastBin;
          s_d = '0;
          seq_d = 2'd1;  // C = 100 - P2 = 1 (AgeIsSeq1): add the count once
          st_d = StAge;
        end
      end else begin
        re = 1'b1;
        raddr = bm1;
        b_d = bm1;
        st_d = (st_q == StAge) ? StAge : StScan;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q <= StClear;
      b_q <= TAddr;
      s_q <= '0;
      c_q <= 1'b0;
      since_q <= '0;
      i_q <= '0;
      seq_q <= '0;
      done_q <= 1'b0;
      aging_q <= 1'b0;
      cls_q <= '0;
      scanned_q <= 1'b0;
    end else begin
      st_q <= st_d;
      // the sample's bin (registered: the RAM address is a register), else b_d; the bin's path
      // through the normalising shifter passes one select only (fmax)
      b_q <= (st_q == StIdle && rwd_valid_i) ? bin : b_d;
      s_q <= s_d;
      c_q <= c_d;
      since_q <= since_d;
      i_q <= i_d;
      seq_q <= seq_d;
      done_q <= done_d;
      aging_q <= aging_d;
      cls_q <= cls_d;
      scanned_q <= scanned_d;
    end
  end

  assign rwd_rsp_valid_o = (st_q == StIncT);  // the cycle after StInc
  if (LogReward) begin : g_log
    logic [QW-1:0] bin_q8;  // the bin in Q.QF octaves: bin << (QF - SubBits)
    assign bin_q8 = QW'(b_q) << (qrl_pkg::QF - SubBits);
    assign rwd_value_o = -bin_q8;
    assign rwd_scanned_o = 1'b1;
    logic unused_log;
    assign unused_log = ^{cfg_values_i, cls_q, scanned_q};
  end else begin : g_classes
    assign rwd_value_o = cls_q[1] ? (cls_q[0] ? cfg_values_i[3*QW+:QW] : cfg_values_i[2*QW+:QW])
                                   : (cls_q[0] ? cfg_values_i[QW+:QW] : cfg_values_i[0+:QW]);
    assign rwd_scanned_o = scanned_q;  // set at the end of the response cycle
  end
  assign rwd_bin_o = b_q;
  assign idle_o = (st_q == StIdle);
endmodule
