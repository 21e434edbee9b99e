// The GC scheduler's state encoder and SARSA bookkeeping (GC paper Sec. 5.2, Algorithm 1): twin of
// rl::GcEncoder (controller/rl/enc_gc.h, docs/rl.md "State encoders"). The controller hands the
// unit every served request's response time and inter-arrival interval (ns) and asks for a
// decision; the encoder forms the state, drives the core and the reward unit and keeps what an
// update needs. Operations (op_code_i), each accepted when the unit is idle (op_ready_i):
//   0 SAMPLE: a reward sample (the reward unit; its response held in r_q), the interval's bins
//     shift in (prev <- the previous request's, cur <- this one's);
//   1 DECIDE: the state (prev bin, cur bin, bin of the previous action) to the core;
//   2 COMMIT(op_action_i): the action run; unless it is the first or the unit is frozen, the core
//     updates Q(s_prev, a_prev) with the held reward and Q(s, action) (SARSA); (s, action) become
//     (s_prev, a_prev).
// Every core and reward request is issued at the operation's accepting edge, so an operation
// takes its core or reward operation's cycles (one edge when there is none). Features:
// qrl_bin, parameters as rl::GcEncConfig (thresholds in ns, the action's as an index).
module qrl_enc_gc #(
  parameter int unsigned Mode = 0,  // the unit's design point; 2 (frozen): no reward, no update
  parameter int unsigned PrevN = 1,
  parameter logic [((PrevN > 0) ? PrevN : 1)*32-1:0] PrevThr = qrl_pkg::GcPrevThr,
  parameter int unsigned CurN = 16,
  parameter logic [((CurN > 0) ? CurN : 1)*32-1:0] CurThr = qrl_pkg::GcCurThr,
  parameter int unsigned ActN = 1,
  parameter logic [((ActN > 0) ? ActN : 1)*3-1:0] ActThr = 3'd4,
  parameter int unsigned States = (PrevN + 1) * (CurN + 1) * (ActN + 1),
  parameter int unsigned StW = qrl_pkg::idx_w(States)
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  // operation
  input  logic                   op_valid_i,
  input  logic                   op_ready_i,
  input  logic [            1:0] op_code_i,
  input  logic [           31:0] op_latency_i,
  input  logic [           31:0] op_interval_i,
  input  logic [            2:0] op_action_i,
  // core requests
  output logic                   dec_valid_o,
  output logic [        StW-1:0] dec_state_o,
  output logic                   upd_valid_o,
  output logic [        StW-1:0] upd_state_o,
  output logic [            2:0] upd_action_o,
  output logic [qrl_pkg::QW-1:0] upd_reward_o,
  output logic [        StW-1:0] upd_next_state_o,
  output logic [            2:0] upd_next_action_o,
  output logic                   upd_rwd_ready_o,
  // reward unit
  output logic                   rwd_valid_o,
  output logic [           31:0] rwd_sample_o,
  input  logic                   rwd_rsp_valid_i,
  input  logic [qrl_pkg::QW-1:0] rwd_value_i,
  input  logic                   rwd_scanned_i,
  // response registers: the latest decision's state, the held reward, the last COMMIT's update
  output logic [        StW-1:0] state_o,
  output logic [qrl_pkg::QW-1:0] reward_o,
  output logic                   reward_ready_o,
  output logic                   upd_o,
  output logic [        StW-1:0] upd_entry_state_o,
  output logic [            2:0] upd_entry_action_o
);
  localparam bit Learn = (Mode != 2);
  localparam int unsigned PrevBins = PrevN + 1;
  localparam int unsigned CurBins = CurN + 1;
  localparam int unsigned ActBins = ActN + 1;
  localparam int unsigned PW = qrl_pkg::idx_w(PrevBins);
  localparam int unsigned CW = qrl_pkg::idx_w(CurBins);
  localparam int unsigned AW = qrl_pkg::idx_w(ActBins);
  localparam logic [1:0] OpSample = 2'd0;
  localparam logic [1:0] OpDecide = 2'd1;
  localparam logic [1:0] OpCommit = 2'd2;

  logic acc, acc_smp, acc_dec, acc_com;
  assign acc = op_valid_i && op_ready_i;
  assign acc_smp = acc && (op_code_i == OpSample);
  assign acc_dec = acc && (op_code_i == OpDecide);
  assign acc_com = acc && (op_code_i == OpCommit);

  // ---------------------------------------------------------------- features
  logic [PW-1:0] prev_n, pb_q, npb_q;  // the previous served request's interval bin
  logic [CW-1:0] cur_n, cb_q;          // the request being served
  logic [AW-1:0] act_bin;              // the previous action's
  logic [2:0] ap_q;
  qrl_bin #(.N(PrevN), .W(32), .Thr(PrevThr), .BW(PW)) u_prev (.x_i(op_interval_i), .bin_o(prev_n));
  qrl_bin #(.N(CurN), .W(32), .Thr(CurThr), .BW(CW)) u_cur (.x_i(op_interval_i), .bin_o(cur_n));
  qrl_bin #(.N(ActN), .W(3), .Thr(ActThr), .BW(AW)) u_act (.x_i(ap_q), .bin_o(act_bin));
  // index = (prev * CurBins + cur) * ActBins + act
  assign dec_state_o = StW'((StW'(pb_q) * StW'(CurBins) + StW'(cb_q)) * StW'(ActBins)) +
                       StW'(act_bin);
  assign dec_valid_o = acc_dec;

  // ---------------------------------------------------------------- reward and bookkeeping
  logic [qrl_pkg::QW-1:0] r_q;
  logic rr_q, hp_q, upd_q;
  logic [StW-1:0] s_q, sp_q, us_q;
  logic [2:0] ua_q;

  assign rwd_valid_o = Learn && acc_smp;
  assign rwd_sample_o = op_latency_i;
  assign upd_valid_o = Learn && acc_com && hp_q;
  assign upd_state_o = sp_q;
  assign upd_action_o = ap_q;
  assign upd_reward_o = r_q;
  assign upd_rwd_ready_o = rr_q;
  assign upd_next_state_o = s_q;
  assign upd_next_action_o = op_action_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pb_q <= '0;
      npb_q <= '0;
      cb_q <= '0;
      r_q <= '0;
      rr_q <= 1'b1;
      s_q <= '0;
      sp_q <= '0;
      ap_q <= '0;
      hp_q <= 1'b0;
      upd_q <= 1'b0;
      us_q <= '0;
      ua_q <= '0;
    end else begin
      if (acc_smp) begin
        pb_q <= npb_q;
        npb_q <= prev_n;
        cb_q <= cur_n;
        if (!Learn) begin  // no reward unit: nothing to learn from
          r_q <= '0;
          rr_q <= 1'b0;
        end
      end
      if (Learn && rwd_rsp_valid_i) begin
        r_q <= rwd_value_i;
        rr_q <= rwd_scanned_i;
      end
      if (acc_dec) s_q <= dec_state_o;
      if (acc_com) begin
        upd_q <= Learn && hp_q;
        us_q <= sp_q;
        ua_q <= ap_q;
        sp_q <= s_q;
        ap_q <= op_action_i;
        hp_q <= 1'b1;
      end
    end
  end

  assign state_o = s_q;
  assign reward_o = r_q;
  assign reward_ready_o = rr_q;
  assign upd_o = upd_q;
  assign upd_entry_state_o = us_q;
  assign upd_entry_action_o = ua_q;
endmodule
