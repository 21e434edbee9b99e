// Quick place-and-route harness for bench/rtl_fmax_quick.sh (not part of the unit, not counted in
// any area): every qrl_unit input is a flip-flop of one shift register fed by one pin, every
// output is registered and XOR-folded into one pin, so no logic is optimised away.
module qrl_fmax_harness #(
  parameter int unsigned States = 128,
  parameter int unsigned Actions = 4,
  parameter bit Shadow = 1'b0,
  parameter bit HasReward = 1'b1,
  parameter bit TreeArgmax = 1'b1,
  parameter bit QSelMux = 1'b1
) (
  input  logic clk_i,
  input  logic rst_ni,
  input  logic din_i,
  output logic dout_o
);
  localparam int unsigned StW = (States > 1) ? $clog2(States) : 1;
  localparam int unsigned ActW = (Actions > 1) ? $clog2(Actions) : 1;
  localparam int unsigned RowW = Actions * 16;
  localparam int unsigned InBits = 16 + 16 + 24 + 16 + 64 + 1 + StW + Actions + 1 + StW + ActW + 16
                                   + StW + ActW + 1 + Actions + 1 + 2 + StW + 1 + RowW + 32 + 1 + 32;
  localparam int unsigned OutBits = 1 + 1 + ActW + 1 + 1 + 1 + 1 + 1 + RowW + 1 + 1 + 16 + 8 + 1;
  logic [InBits-1:0] sr;
  logic [OutBits-1:0] o, oq;
  always_ff @(posedge clk_i) sr <= {sr[InBits-2:0], din_i};
  qrl_unit #(.States(States), .Actions(Actions), .Shadow(Shadow), .HasReward(HasReward), .TreeArgmax(TreeArgmax), .QSelMux(QSelMux)) u (
    .clk_i, .rst_ni,
    .cfg_eps_hi_i(sr[15:0]), .cfg_eps_lo_i(sr[31:16]), .cfg_eps_n_i(sr[55:32]),
    .cfg_episode_len_i(sr[71:56]), .cfg_values_i(sr[135:72]),
    .dec_valid_i(sr[136]), .dec_state_i(sr[137+:StW]), .dec_mask_i(sr[137+StW+:Actions]),
    .upd_valid_i(sr[137+StW+Actions]),
    .upd_state_i(sr[138+StW+Actions+:StW]),
    .upd_action_i(sr[138+2*StW+Actions+:ActW]),
    .upd_reward_i(sr[138+2*StW+Actions+ActW+:16]),
    .upd_next_state_i(sr[154+2*StW+Actions+ActW+:StW]),
    .upd_next_action_i(sr[154+3*StW+Actions+ActW+:ActW]),
    .upd_next_max_i(sr[154+3*StW+Actions+2*ActW]),
    .upd_next_mask_i(sr[155+3*StW+Actions+2*ActW+:Actions]),
    .mgt_valid_i(sr[155+3*StW+2*Actions+2*ActW]),
    .mgt_op_i(sr[156+3*StW+2*Actions+2*ActW+:2]),
    .mgt_state_i(sr[158+3*StW+2*Actions+2*ActW+:StW]),
    .mgt_shadow_i(sr[158+4*StW+2*Actions+2*ActW]),
    .mgt_row_i(sr[159+4*StW+2*Actions+2*ActW+:RowW]),
    .mgt_seed_i(sr[159+4*StW+2*Actions+2*ActW+RowW+:32]),
    .rwd_valid_i(sr[191+4*StW+2*Actions+2*ActW+RowW]),
    .rwd_sample_i(sr[192+4*StW+2*Actions+2*ActW+RowW+:32]),
    .dec_ready_o(o[0]), .dec_rsp_valid_o(o[1]), .dec_action_o(o[2+:ActW]),
    .dec_explored_o(o[2+ActW]), .upd_ready_o(o[3+ActW]), .upd_done_o(o[4+ActW]),
    .mgt_ready_o(o[5+ActW]), .mgt_rsp_valid_o(o[6+ActW]), .mgt_row_o(o[7+ActW+:RowW]),
    .rwd_ready_o(o[7+ActW+RowW]), .rwd_rsp_valid_o(o[8+ActW+RowW]),
    .rwd_value_o(o[9+ActW+RowW+:16]), .rwd_bin_o(o[25+ActW+RowW+:8]), .idle_o(o[33+ActW+RowW])
  );
  always_ff @(posedge clk_i) begin
    oq <= o;
    dout_o <= ^oq;
  end
endmodule
