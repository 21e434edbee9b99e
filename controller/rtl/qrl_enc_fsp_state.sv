// The FSP grouper's state of a page (combinational; twin of rl::FspEncoder::state_of): the read
// count's bin, whether its last read is of the current or the previous episode (the history
// word's tag against the unit's), the request's size bin in pages (its digit counting down:
// bin 0, at most one page, is "small"), whether the cache slot lacks sectors (its mask against
// sectors-per-page ones), the previous write's page type. index = (((count * ShortBins + short)
// * SizeBins + size digit) * PartialBins + partial) * TypeBins + type.
module qrl_enc_fsp_state #(
  parameter int unsigned CountN = 3,
  parameter logic [((CountN > 0) ? CountN : 1)*3-1:0] CountThr = 9'h1a2,
  parameter bit ShortOn = 1'b1,
  parameter int unsigned SizeN = 1,
  parameter logic [((SizeN > 0) ? SizeN : 1)*32-1:0] SizeThr = 32'd2,
  parameter bit PartialOn = 1'b1,
  parameter int unsigned TypeN = 3,
  parameter logic [((TypeN > 0) ? TypeN : 1)*2-1:0] TypeThr = 6'h39,
  parameter int unsigned States = 128,
  parameter int unsigned StW = qrl_pkg::idx_w(States)
) (
  input  logic [   15:0] history_i,  // {tag[9:0], stale, type[1:0], count[2:0]}
  input  logic [   31:0] pages_i,
  input  logic [   31:0] mask_i,
  input  logic [    5:0] spp_i,
  input  logic [    9:0] tag_i,  // the current episode's
  input  logic           epz_i,  // episode > 0
  output logic [StW-1:0] state_o
);
  localparam int unsigned CB = qrl_pkg::idx_w(CountN + 1);
  localparam int unsigned SB = qrl_pkg::idx_w(SizeN + 1);
  localparam int unsigned TB = qrl_pkg::idx_w(TypeN + 1);
  logic [CB-1:0] count_bin;
  logic [SB-1:0] size_bin, size_digit;
  logic [TB-1:0] type_bin;
  logic [9:0] tag, prev_tag;
  logic short_term, partial;
  logic [31:0] full;
  qrl_bin #(.N(CountN), .W(3), .Thr(CountThr), .BW(CB)) u_count (.x_i(history_i[2:0]),
      .bin_o(count_bin));
  qrl_bin #(.N(SizeN), .W(32), .Thr(SizeThr), .BW(SB)) u_size (.x_i(pages_i), .bin_o(size_bin));
  qrl_bin #(.N(TypeN), .W(2), .Thr(TypeThr), .BW(TB)) u_type (.x_i(history_i[4:3]),
      .bin_o(type_bin));
  assign size_digit = SB'(SizeN) - size_bin;
  assign tag = history_i[15:6];
  assign prev_tag = (tag_i == 10'd1) ? 10'd1023 : tag_i - 10'd1;
  assign short_term = ShortOn && (tag != '0) && ((tag == tag_i) || (epz_i && tag == prev_tag));
  assign full = (spp_i >= 6'd32) ? '1 : ((32'd1 << spp_i[4:0]) - 32'd1);
  assign partial = PartialOn && (mask_i != full);
  localparam int unsigned ShortBins = ShortOn ? 2 : 1;
  localparam int unsigned PartialBins = PartialOn ? 2 : 1;
  assign state_o = StW'((((StW'(count_bin) * StW'(ShortBins) + StW'(short_term)) * StW'(SizeN + 1)
                         + StW'(size_digit)) * StW'(PartialBins) + StW'(partial)) * StW'(TypeN + 1))
                   + StW'(type_bin);
  logic unused_stale;
  assign unused_stale = history_i[5];
endmodule
