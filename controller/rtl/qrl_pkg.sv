// Constants and elaboration-time functions shared by the RL unit's modules. Referenced as
// qrl_pkg::NAME (Yosys 0.23 reads package-scoped names but not `import`).
package qrl_pkg;
  // ---- the fixed-point format and the update's constants (docs/rl.md "Fixed point")
  localparam int unsigned QW = 16;  // q values and rewards: Q8.8
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

  // ---- the serial update (qrl_qadd.sv): for each bit position p = 0 .. 2KF-1 of CD and CN, one
  // shift-and-add step per set bit (d first, then Q'), or one empty step.
  function automatic int unsigned n_steps();
    int unsigned n, t;
    n = 0;
    for (int unsigned p = 0; p < 2 * KF; p++) begin
      t = ((CD >> p) & 1) + ((CN >> p) & 1);
      n = n + ((t == 0) ? 1 : t);
    end
    n_steps = n;
  endfunction
  // {carry-in, shift, operand (0 none, 1 Q', 2 d)} of step k: the last step of a position shifts
  // right, the last one of all adds the rounding half as a carry-in.
  function automatic logic [3:0] step_info(input int unsigned k);
    int unsigned n, t;
    logic [3:0] r;
    logic last_pos;
    n = 0;
    r = 4'b0;
    for (int unsigned p = 0; p < 2 * KF; p++) begin
      t = ((CD >> p) & 1) + ((CN >> p) & 1);
      last_pos = (p == 2 * KF - 1);
      if (t == 0) begin
        if (n == k) r = {last_pos, 1'b1, 2'd0};
        n = n + 1;
      end else begin
        if (((CD >> p) & 1) != 0) begin
          if (n == k) r = {last_pos && (t == 1), t == 1, 2'd2};
          n = n + 1;
        end
        if (((CN >> p) & 1) != 0) begin
          if (n == k) r = {last_pos, 1'b1, 2'd1};
          n = n + 1;
        end
      end
    end
    step_info = r;
  endfunction

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
