// Constants and elaboration-time functions shared by the RL unit's modules. Referenced as
// qrl_pkg::NAME (Yosys 0.23 reads package-scoped names but not `import`). The core (qrl_core)
// and the reward unit (qrl_reward) are verilated and synthesised as separate tops, each using
// its part of the package: unused package parameters are not a lint warning here.
/* verilator lint_off UNUSEDPARAM */
package qrl_pkg;
  // ---- the fixed-point format and the update's constants (docs/rl.md "Fixed point")
  localparam int unsigned QW = 16;  // q values and rewards: Q8.8
  localparam int unsigned QF = 8;  // their fraction bits
  localparam int unsigned KF = 8;  // fraction bits of alpha and gamma
  localparam int unsigned Alpha = 77;  // round(0.3 * 256)
  localparam int unsigned Gamma = 205;  // round(0.8 * 256)
  localparam int unsigned CD = Alpha << KF;  // the update's coefficient of d = r - Q(s, a)
  localparam int unsigned CN = Alpha * Gamma;  // its coefficient of Q'

  // ---- the percentile reward unit (docs/rl.md "Reward unit")
  localparam int unsigned InW = 32;  // sample width
  localparam int unsigned SubBits = 3;  // sub-bins per octave: 2^SubBits
  localparam int unsigned Bins = (InW - SubBits + 1) << SubBits;
  localparam int unsigned BinW = $clog2(Bins + 1);
  localparam int unsigned Period = 1024;  // samples between threshold scans
  localparam int unsigned P0 = 70;  // percentiles
  localparam int unsigned P1 = 90;
  localparam int unsigned P2 = 99;
  localparam int unsigned AgeLimit = 32768;  // counts halved at a scan from this total on

  // ---- the ε schedule and the episode length (qrl_core's cfg_ inputs, as qrl_decide takes them)
  typedef struct packed {
    logic [15:0] eps_hi;       // ε while decisions of the ε-high budget are left (of 65536)
    logic [15:0] eps_lo;       // ε afterwards
    logic [23:0] eps_n;        // the ε-high budget, in decisions
    logic [15:0] episode_len;  // decisions per episode (0: none)
  } eps_cfg_t;

  // ---- widths
  function automatic int unsigned idx_w(input int unsigned n);  // an index below n
    idx_w = (n > 1) ? $clog2(n) : 1;
  endfunction
  function automatic int unsigned pair_w(input int unsigned actions);  // action pairs i < j
    pair_w = (actions > 1) ? actions * (actions - 1) / 2 : 1;
  endfunction
  // The bit of pair (i, j), i < j, in a half of an order-bit row (qrl_winner.sv).
  function automatic int unsigned pair_idx(input int unsigned actions, input int unsigned i,
                                           input int unsigned j);
    pair_idx = i * actions - i * (i + 1) / 2 + (j - i - 1);
  endfunction

  // The index of the set bit of a one-hot vector (0 when none; the bits of several set OR'ed).
  function automatic logic [3:0] onehot_idx(input logic [15:0] v);
    logic [3:0] r;
    r = 4'd0;
    for (int unsigned i = 0; i < 16; i++) begin
      if (v[i]) r = r | 4'(i);
    end
    onehot_idx = r;
  endfunction

  // ---- the serial update (qrl_qadd.sv): acc = floor((CD d + CN Q' + 2^(2KF-1)) / 2^2KF) by
  // shift-and-add steps over the digits of the two constants, least significant first: CD's
  // binary digits (an addition of d), CN's non-adjacent form (NAF: digits -1, 0, 1, no two
  // adjacent non-zero; an addition or subtraction of Q'). Each step adds its operand and shifts
  // the accumulator right by the distance to the next digit's position (at most MaxShift; a
  // longer gap takes empty steps; two digits at one position: the first shifts 0). The rounding
  // half is the accumulator's initial value, 2^(2KF-1) at the first digit's weight.
  localparam int unsigned MaxShift = 3;
  // The step sequence, one pass over the digit positions (elaboration time): step k's {kind[1:0]
  // (0 empty, 1 Q', 2 d, 3 -Q'), shift[1:0]} at bits [4k +: 4] (at most 16 steps), the number of
  // steps in bits [67:64], the first digit's position in bits [71:68].
  function automatic logic [71:0] step_seq();
    logic [71:0] r;
    int unsigned n, c, at, gap;
    logic [1:0] kind;
    logic [3:0] first;
    logic pending;
    r = '0;
    n = 0;
    c = CN;  // NAF digits of CN, least significant first: c odd -> digit 2 - (c mod 4)
    pending = 1'b0;
    at = 0;
    kind = 0;
    first = 0;
    for (int unsigned p = 0; p <= 2 * KF; p++) begin
      for (int unsigned h = 0; h < 2; h++) begin  // d first, then Q' at a position
        logic here;
        logic [1:0] k;
        here = 1'b0;
        k = 2'd0;
        if (p == 2 * KF) begin
          here = (h == 0) && pending;  // the end: close the last step
        end else if (h == 0) begin
          here = ((CD >> p) & 1) != 0;
          k = 2'd2;
        end else if (c % 2 == 1) begin
          here = 1'b1;
          k = (c % 4 == 1) ? 2'd1 : 2'd3;
        end
        if (here && pending) begin
          gap = p - at;
          r = r | (72'({kind, 2'((gap > MaxShift) ? MaxShift : gap)}) << (4 * n));
          n = n + 1;
          for (int unsigned g = MaxShift; g < 2 * KF; g += MaxShift) begin
            if (gap > g) begin  // an empty step
              r = r | (72'({2'b00, 2'((gap - g > MaxShift) ? MaxShift : gap - g)}) << (4 * n));
              n = n + 1;
            end
          end
        end
        if (here && p < 2 * KF) begin
          if (!pending) first = 4'(p);
          pending = 1'b1;
          at = p;
          kind = k;
        end
      end
      if (p < 2 * KF && c % 2 == 1) c = (c % 4 == 1) ? c - 1 : c + 1;
      c = c / 2;
    end
    r[67:64] = 4'(n);
    r[71:68] = 4'(first);
    step_seq = r;
  endfunction
  localparam logic [71:0] StepSeq = step_seq();
  localparam int unsigned NSteps = 32'(StepSeq[67:64]);
  // the accumulator's initial value: the rounding half at the first digit's weight
  localparam int unsigned AccInit = 1 << (2 * KF - 1 - 32'(StepSeq[71:68]));

  // ---- the random pick's products (qrl_kprod.sv): k = (w * n) >> 16 for a set of n members,
  // n = o * 2^e with o odd, is bits [16 - e +: clog2(n)] of w * o. Per odd o <= actions the bits
  // [16 - emax(o), 16 + clog2(o)) of w * o are kept (emax(o): the largest e with o * 2^e <=
  // actions), packed in order of o.
  function automatic int unsigned kp_emax(input int unsigned actions, input int unsigned o);
    int unsigned e;
    e = 0;
    for (int unsigned i = 1; i < 16; i++) begin
      if ((o << i) <= actions) e = i;
    end
    kp_emax = e;
  endfunction
  function automatic int unsigned kp_bits(input int unsigned actions, input int unsigned o);
    kp_bits = kp_emax(actions, o) + ((o > 1) ? $clog2(o) : 0);
  endfunction
  function automatic int unsigned kp_off(input int unsigned actions, input int unsigned o);
    int unsigned s;
    s = 0;
    for (int unsigned x = 1; x < 32; x += 2) begin
      if (x < o && x <= actions) s = s + kp_bits(actions, x);
    end
    kp_off = s;
  endfunction
  function automatic int unsigned kp_width(input int unsigned actions);  // at least 1
    kp_width = (actions > 1) ? kp_off(actions, actions + 2) : 1;
  endfunction
  function automatic int unsigned odd_part(input int unsigned n);
    int unsigned m;
    m = n;
    for (int i = 0; i < 8; i++) begin
      if (m % 2 == 0 && m != 0) m = m / 2;
    end
    odd_part = m;
  endfunction
endpackage
/* verilator lint_on UNUSEDPARAM */
