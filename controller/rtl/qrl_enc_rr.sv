// The read-refresh scheduler's state encoder and SARSA bookkeeping (read-disturb paper, ws+rs):
// twin of rl::RrEncoder (controller/rl/enc_rr.h, docs/rl.md "State encoders"). Operations
// (op_code_i), each accepted when the unit is idle (op_ready_i):
//   0 SAMPLE(latency, the streams it credits, in order): a reward sample; each credited stream's
//     unrewarded transitions get its reward, and each that has a successor is updated (the
//     last becomes the stream's rewarded head);
//   1 DECIDE(erasable, movable, stream, intervals): nothing when the mask is empty; else the state
//     (erasable, the stream's previous action's bin, the intervals' bins) to the core, then
//     with cfg_step_i (rd.rs_trigger step) the new transition joins the stream's chain and a
//     rewarded head is updated with it as successor, else (request) Q(s_prev, a_prev) is updated
//     with the held reward.
// Per stream: the previous action's bin, the chain's control (first entry, entries, whether it
// is one rewarded head, that head's reward) in flip-flops, its transitions (s, a) in the chain
// RAM (Streams x Depth words; a transition pushed onto a full chain drops the oldest). Cycles:
// every core and reward request is issued when the previous one ends, so an operation takes the
// cycles of its core and reward operations (one edge when there are none). A decision's
// transition is written into the chain RAM at the edge after its response (the next operation's
// first edge when no update follows it in the same operation); until then the stream's
// previous-action bin is forwarded from the core's response. The chain RAM is read only at
// edges after that write.
module qrl_enc_rr #(
  parameter int unsigned Mode = 0,  // the unit's design point; 2 (frozen): no reward, no update
  parameter int unsigned Streams = 8,  // decision streams (rd.rs_scope die: the dies)
  parameter int unsigned Depth = 64,  // chain entries per stream, a power of two
  parameter int unsigned ErN = 1,
  parameter logic [((ErN > 0) ? ErN : 1)-1:0] ErThr = 1'b1,
  parameter int unsigned BigN = 1,
  parameter logic [((BigN > 0) ? BigN : 1)*4-1:0] BigThr = 4'd2,
  parameter int unsigned PrevN = 1,
  parameter logic [((PrevN > 0) ? PrevN : 1)*32-1:0] PrevThr = qrl_pkg::RrPrevThr,
  parameter int unsigned CurN = 9,
  parameter logic [((CurN > 0) ? CurN : 1)*32-1:0] CurThr = qrl_pkg::RrCurThr,
  parameter logic [8:0] EraseActs = 9'h1f0,
  parameter logic [8:0] MoveActs = 9'h00f,
  parameter int unsigned States = (ErN + 1) * (BigN + 1) * (PrevN + 1) * (CurN + 1),
  parameter int unsigned StW = qrl_pkg::idx_w(States),
  parameter int unsigned SW = qrl_pkg::idx_w(Streams),
  parameter int unsigned CNW = $clog2(Streams + 1)
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   cfg_step_i,
  // operation
  input  logic                   op_valid_i,
  input  logic                   op_ready_i,
  input  logic                   op_code_i,
  input  logic [           31:0] op_latency_i,
  input  logic [        CNW-1:0] op_credit_n_i,
  input  logic [ Streams*SW-1:0] op_credit_i,
  input  logic                   op_erasable_i,
  input  logic                   op_movable_i,
  input  logic [         SW-1:0] op_stream_i,
  input  logic [           31:0] op_cur_i,
  input  logic [           31:0] op_prev_i,
  // core
  output logic                   dec_valid_o,
  output logic [        StW-1:0] dec_state_o,
  output logic [            8:0] dec_mask_o,
  input  logic                   dec_rsp_valid_i,
  input  logic [            3:0] dec_action_i,
  output logic                   upd_valid_o,
  input  logic                   upd_ready_i,
  output logic [        StW-1:0] upd_state_o,
  output logic [            3:0] upd_action_o,
  output logic [qrl_pkg::QW-1:0] upd_reward_o,
  output logic [        StW-1:0] upd_next_state_o,
  output logic [            3:0] upd_next_action_o,
  output logic                   upd_rwd_ready_o,
  // reward unit
  output logic                   rwd_valid_o,
  output logic [           31:0] rwd_sample_o,
  input  logic                   rwd_rsp_valid_i,
  input  logic [qrl_pkg::QW-1:0] rwd_value_i,
  input  logic                   rwd_scanned_i,
  input  logic                   rwd_idle_i,
  // response registers: the held reward, the latest decision's state and mask, the last update
  output logic [qrl_pkg::QW-1:0] reward_o,
  output logic                   reward_ready_o,
  output logic [        StW-1:0] state_o,
  output logic [            8:0] mask_o,
  output logic [        StW-1:0] upd_entry_state_o,
  output logic [            3:0] upd_entry_action_o,
  output logic [qrl_pkg::QW-1:0] upd_entry_reward_o,
  output logic                   upd_entry_ready_o,
  output logic                   busy_o
);
  localparam bit Learn = (Mode != 2);
  localparam int unsigned QW = qrl_pkg::QW;
  localparam int unsigned PW = qrl_pkg::idx_w(Depth);  // a chain position
  localparam int unsigned NW = $clog2(Depth + 1);  // a chain's entries
  localparam int unsigned EW = StW + 4;  // a chain entry {s, a}
  localparam int unsigned BBW = qrl_pkg::idx_w(BigN + 1);

  logic acc, acc_smp, acc_dec;
  assign acc = op_valid_i && op_ready_i;
  assign acc_smp = acc && !op_code_i;
  assign acc_dec = acc && op_code_i;

  // ---------------------------------------------------------------- per stream
  // (flat vectors, stream k's field at [k*W +: W]: Yosys 0.23 reads no multi-dimensional packed
  // arrays)
  logic [Streams*BBW-1:0] big_q;
  logic [Streams*NW-1:0] n_q;
  logic [Streams*PW-1:0] ptr_q;
  logic [Streams-1:0] hv_q, hrdy_q;
  logic [Streams*QW-1:0] hr_q;

  // ---------------------------------------------------------------- the chain RAM
  logic c_re, c_we;
  logic [SW+PW-1:0] c_raddr, c_waddr;
  logic [EW-1:0] c_rdata, c_wdata;
  qrl_ram_1r1w #(.Depth(Streams * Depth), .Width(EW)) u_chain (.clk_i, .re_i(c_re),
      .raddr_i(c_raddr), .rdata_o(c_rdata), .we_i(c_we), .wmask_i(1'b1), .waddr_i(c_waddr),
      .wdata_i(c_wdata));

  // ---------------------------------------------------------------- decide
  // The pending transition: the latest decision's stream, chain position and state (s_q), its
  // action taken from the core's response at the next edge (pv_q: not yet taken).
  logic pv_q, dupd_q, hp_q, rr_q;
  logic [SW-1:0] pst_q, dst_q;
  logic [PW-1:0] ppos_q;
  logic [StW-1:0] s_q, sp_q;
  logic [3:0] ap_q;
  logic [QW-1:0] r_q;
  logic take;  // the pending transition's action is on the core's response
  assign take = pv_q && dec_rsp_valid_i;

  logic [BBW-1:0] big_act, big_cur;
  logic [qrl_pkg::idx_w(ErN + 1)-1:0] er_bin;
  logic [qrl_pkg::idx_w(PrevN + 1)-1:0] prev_bin;
  logic [qrl_pkg::idx_w(CurN + 1)-1:0] cur_bin;
  qrl_bin #(.N(BigN), .W(4), .Thr(BigThr), .BW(BBW)) u_big (.x_i(dec_action_i), .bin_o(big_act));
  qrl_bin #(.N(ErN), .W(1), .Thr(ErThr)) u_er (.x_i(op_erasable_i), .bin_o(er_bin));
  qrl_bin #(.N(PrevN), .W(32), .Thr(PrevThr)) u_prev (.x_i(op_prev_i), .bin_o(prev_bin));
  qrl_bin #(.N(CurN), .W(32), .Thr(CurThr)) u_cur (.x_i(op_cur_i), .bin_o(cur_bin));
  assign big_cur = (take && pst_q == op_stream_i) ? big_act : big_q[op_stream_i*BBW+:BBW];
  // index = ((erasable * BigBins + big) * PrevBins + prev) * CurBins + cur
  assign dec_state_o = StW'(((StW'(er_bin) * StW'(BigN + 1) + StW'(big_cur)) * StW'(PrevN + 1) +
                             StW'(prev_bin)) * StW'(CurN + 1)) + StW'(cur_bin);
  assign dec_mask_o = (op_erasable_i ? EraseActs : 9'h0) | (op_movable_i ? MoveActs : 9'h0);
  assign dec_valid_o = acc_dec && (dec_mask_o != 9'h0);

  // where the new transition goes in the stream's chain, and whether it updates a rewarded head
  logic [PW-1:0] new_pos;
  logic d_head;
  assign d_head = cfg_step_i && hv_q[op_stream_i];
  assign new_pos = d_head ? ptr_q[op_stream_i*PW+:PW] + PW'(1) :
                   ptr_q[op_stream_i*PW+:PW] + PW'(n_q[op_stream_i*NW+:NW]);  // wraps: a full chain's oldest

  // ---------------------------------------------------------------- sample: the chain walks
  // A credited stream whose chain has a transition with a successor (cw_q) is walked: its entries
  // read two ahead, one update per transition (e0 with e1 as successor), the last becomes the
  // head. WIdle reads the first entry of the next stream, WRd0 the second, WRd2 the one after an
  // update, WRd1 takes it; WUpd issues the update once the sample's reward is in (an update lasts
  // longer than the reads). A reward from the reward unit's warm-up (not ready) drops every update
  // at the next edge: they need no entry, WIdle and WDrop issue them one per cycle.
  typedef enum logic [2:0] {WIdle, WRd0, WRd1, WRd2, WUpd, WDrop} walk_e;
  walk_e ws_q;
  logic [Streams*SW-1:0] list_q;
  logic [CNW-1:0] cnt_q;
  logic rwd_wait_q;  // the sample's reward not yet taken
  logic [SW-1:0] wk_q;  // the stream walked
  logic [PW-1:0] wpos_q;  // the next entry to read
  logic [NW-1:0] wleft_q;  // updates left
  logic [EW-1:0] e0_q, e1_q;
  logic [Streams-1:0] listed, cw_q;  // cw_q: a credited stream to walk
  logic found;
  logic [SW-1:0] found_k;

  always_comb begin  // the streams of the sample's list
    listed = '0;
    for (int unsigned i = 0; i < Streams; i++) begin
      if (CNW'(i) < op_credit_n_i) listed[op_credit_i[i*SW+:SW]] = 1'b1;
    end
  end
  always_comb begin  // the first stream of the list still to walk, in the list's order
    found = 1'b0;
    found_k = '0;
    for (int i = Streams - 1; i >= 0; i--) begin
      if (CNW'(i) < cnt_q && cw_q[list_q[i*SW+:SW]]) begin
        found = 1'b1;
        found_k = list_q[i*SW+:SW];
      end
    end
  end

  // ---------------------------------------------------------------- core and reward requests
  logic u_walk, u_dec, u_acc, walk_acc, walk_last, drop_now;
  logic [SW-1:0] wcur;  // the stream whose update u_walk issues
  logic [NW-1:0] wleft_cur;  // its updates left
  assign drop_now = Learn && (ws_q == WIdle) && found && !rwd_wait_q && !rr_q;
  assign u_walk = Learn && !rwd_wait_q && rwd_idle_i &&
                  ((ws_q == WUpd) || (ws_q == WDrop) || drop_now);
  assign u_dec = Learn && dupd_q && dec_rsp_valid_i;
  assign upd_valid_o = u_walk || u_dec;
  assign u_acc = upd_valid_o && upd_ready_i;
  assign wcur = (ws_q == WIdle) ? found_k : wk_q;
  assign wleft_cur = (ws_q == WIdle) ? n_q[found_k*NW+:NW] - NW'(1) : wleft_q;
  assign walk_acc = u_walk && upd_ready_i;
  assign walk_last = walk_acc && (wleft_cur == NW'(1));
  always_comb begin
    if (u_walk) begin
      {upd_state_o, upd_action_o} = e0_q;
      upd_reward_o = r_q;
      upd_rwd_ready_o = rr_q;
      {upd_next_state_o, upd_next_action_o} = e1_q;
    end else begin
      if (cfg_step_i) begin  // the head, read at the decision's accept
        {upd_state_o, upd_action_o} = c_rdata;
        upd_reward_o = hr_q[dst_q*QW+:QW];
        upd_rwd_ready_o = hrdy_q[dst_q];
      end else begin
        upd_state_o = sp_q;
        upd_action_o = ap_q;
        upd_reward_o = r_q;
        upd_rwd_ready_o = rr_q;
      end
      upd_next_state_o = s_q;
      upd_next_action_o = dec_action_i;
    end
  end
  assign rwd_valid_o = Learn && acc_smp;
  assign rwd_sample_o = op_latency_i;

  // chain RAM: the pending transition's write; reads: a decision's head (accept), the walks
  assign c_we = take && cfg_step_i;
  assign c_waddr = {pst_q, ppos_q};
  assign c_wdata = {s_q, dec_action_i};
  always_comb begin
    c_re = 1'b0;
    c_raddr = {wk_q, wpos_q};
    if (dec_valid_o && d_head) begin
      c_re = 1'b1;
      c_raddr = {op_stream_i, ptr_q[op_stream_i*PW+:PW]};
    end else if (ws_q == WIdle && found && !drop_now) begin
      c_re = 1'b1;
      c_raddr = {found_k, ptr_q[found_k*PW+:PW]};
    end else if (ws_q == WRd0 || ws_q == WRd2) begin
      c_re = 1'b1;
    end
  end

  // ---------------------------------------------------------------- per-stream registers
  logic [Streams-1:0] cw_d;
  for (genvar k = 0; k < Streams; k++) begin : g_stream
    logic [BBW-1:0] big;
    logic [NW-1:0] n;
    logic [PW-1:0] ptr;
    logic hv, cp, cw, hrdy;
    logic [QW-1:0] hr;
    logic credited, walked, pushed;
    assign credited = acc_smp && listed[k] && (n != '0) && !hv;  // takes the sample's reward
    assign walked = walk_last && (wcur == SW'(k));
    assign pushed = dec_valid_o && cfg_step_i && (op_stream_i == SW'(k));
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        big <= '0;
        n <= '0;
        ptr <= '0;
        hv <= 1'b0;
        cp <= 1'b0;
        cw <= 1'b0;
      end else begin
        if (credited) begin
          cp <= Learn;
          if (n == NW'(1)) begin
            hv <= 1'b1;
          end else if (Learn) begin
            cw <= 1'b1;  // to walk
          end else begin  // frozen: no update, the last transition becomes the head
            ptr <= ptr + PW'(n - NW'(1));
            n <= NW'(1);
            hv <= 1'b1;
          end
        end
        if (rwd_rsp_valid_i) cp <= 1'b0;
        if (walked) begin  // its last update: the last transition becomes the head
          ptr <= ptr + PW'(n - NW'(1));
          n <= NW'(1);
          hv <= 1'b1;
          cw <= 1'b0;
        end
        if (pushed) begin
          if (hv) begin  // the head leaves with its update, the new transition follows
            hv <= 1'b0;
            ptr <= ptr + PW'(1);
            n <= NW'(1);
          end else if (n == NW'(Depth)) begin  // full: the oldest is dropped
            ptr <= ptr + PW'(1);
          end else begin
            n <= n + NW'(1);
          end
        end
        if (take && pst_q == SW'(k)) big <= big_act;
      end
    end
    // the head's reward (written before it is read: no reset)
    always_ff @(posedge clk_i) begin
      if (rwd_rsp_valid_i && cp) begin
        hr <= rwd_value_i;
        hrdy <= rwd_scanned_i;
      end
    end
    assign big_q[k*BBW+:BBW] = big;
    assign n_q[k*NW+:NW] = n;
    assign ptr_q[k*PW+:PW] = ptr;
    assign hv_q[k] = hv;
    assign cw_d[k] = cw;
    assign hr_q[k*QW+:QW] = hr;
    assign hrdy_q[k] = hrdy;
  end
  assign cw_q = cw_d;

  // ---------------------------------------------------------------- decision registers
  logic [8:0] mask_q;
  logic [StW-1:0] us_q;
  logic [3:0] ua_q;
  logic [QW-1:0] ur_q;
  logic urdy_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pv_q <= 1'b0;
      dupd_q <= 1'b0;
      pst_q <= '0;
      ppos_q <= '0;
      dst_q <= '0;
      s_q <= '0;
      sp_q <= '0;
      ap_q <= '0;
      hp_q <= 1'b0;
      mask_q <= '0;
      us_q <= '0;
      ua_q <= '0;
      ur_q <= '0;
      urdy_q <= 1'b0;
    end else begin
      if (take) begin
        pv_q <= 1'b0;
        if (!cfg_step_i) begin  // request trigger: the decision becomes (s_prev, a_prev)
          sp_q <= s_q;
          ap_q <= dec_action_i;
          hp_q <= 1'b1;
        end
      end
      if (acc_dec) mask_q <= dec_mask_o;
      if (dec_valid_o) begin
        s_q <= dec_state_o;
        dst_q <= op_stream_i;
        pv_q <= 1'b1;
        pst_q <= op_stream_i;
        ppos_q <= new_pos;
        // request trigger: a previous decision (one taken at this edge included) is updated
        dupd_q <= Learn && (cfg_step_i ? d_head : (hp_q || take));
      end
      if (u_dec) dupd_q <= 1'b0;  // the core is idle after the decision: accepted
      if (u_acc) begin
        us_q <= upd_state_o;
        ua_q <= upd_action_o;
        ur_q <= upd_reward_o;
        urdy_q <= upd_rwd_ready_o;
      end
    end
  end

  // ---------------------------------------------------------------- sample registers
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ws_q <= WIdle;
      list_q <= '0;
      cnt_q <= '0;
      rwd_wait_q <= 1'b0;
      r_q <= '0;
      rr_q <= 1'b1;
      wk_q <= '0;
      wpos_q <= '0;
      wleft_q <= '0;
      e0_q <= '0;
      e1_q <= '0;
    end else begin
      if (acc_smp) begin
        list_q <= op_credit_i;
        cnt_q <= op_credit_n_i;
        rwd_wait_q <= Learn;
        if (!Learn) begin  // no reward unit: nothing to learn from
          r_q <= '0;
          rr_q <= 1'b0;
        end
      end
      if (rwd_rsp_valid_i) begin
        r_q <= rwd_value_i;
        rr_q <= rwd_scanned_i;
        rwd_wait_q <= 1'b0;
      end
      unique case (ws_q)
        WIdle: begin
          if (drop_now) begin
            if (walk_acc && !walk_last) begin
              ws_q <= WDrop;
              wk_q <= found_k;
              wleft_q <= wleft_cur - NW'(1);
            end
          end else if (found) begin
            ws_q <= WRd0;
            wk_q <= found_k;
            wpos_q <= ptr_q[found_k*PW+:PW] + PW'(1);
            wleft_q <= wleft_cur;
          end
        end
        WRd0: begin
          e0_q <= c_rdata;
          wpos_q <= wpos_q + PW'(1);
          ws_q <= WRd1;
        end
        WRd2: begin
          wpos_q <= wpos_q + PW'(1);
          ws_q <= WRd1;
        end
        WRd1: begin
          e1_q <= c_rdata;
          ws_q <= WUpd;
        end
        WUpd, WDrop: begin
          if (walk_acc) begin
            e0_q <= e1_q;
            wleft_q <= wleft_q - NW'(1);
            if (walk_last) ws_q <= WIdle;
            else if (ws_q == WDrop || !rr_q) ws_q <= WDrop;
            else ws_q <= WRd2;
          end
        end
        default: ws_q <= WIdle;
      endcase
    end
  end

  assign reward_o = r_q;
  assign reward_ready_o = rr_q;
  assign state_o = s_q;
  assign mask_o = mask_q;
  assign upd_entry_state_o = us_q;
  assign upd_entry_action_o = ua_q;
  assign upd_entry_reward_o = ur_q;
  assign upd_entry_ready_o = urdy_q;
  assign busy_o = (ws_q != WIdle) || found || rwd_wait_q || dupd_q;
endmodule
