#include "nand/geometry.h"

namespace ssdtlm::nand {

const char* to_string(CellType c) {
  switch (c) {
    case CellType::SLC:
      return "SLC";
    case CellType::MLC:
      return "MLC";
    case CellType::TLC:
      return "TLC";
    case CellType::QLC:
      return "QLC";
  }
  return "?";
}

bool parse_cell_type(const std::string& s, CellType& out) {
  if (s == "SLC")
    out = CellType::SLC;
  else if (s == "MLC")
    out = CellType::MLC;
  else if (s == "TLC")
    out = CellType::TLC;
  else if (s == "QLC")
    out = CellType::QLC;
  else
    return false;
  return true;
}

const char* page_type_name(CellType c, int t) {
  static const char* const kQlc[] = {"LSB", "CLSB", "CMSB", "MSB"};
  static const char* const kTlc[] = {"LSB", "CSB", "MSB"};
  static const char* const kMlc[] = {"LSB", "MSB"};
  switch (c) {
    case CellType::SLC:
      return "SLC";
    case CellType::MLC:
      return t >= 0 && t < 2 ? kMlc[t] : "?";
    case CellType::TLC:
      return t >= 0 && t < 3 ? kTlc[t] : "?";
    case CellType::QLC:
      return t >= 0 && t < 4 ? kQlc[t] : "?";
  }
  return "?";
}

std::string Geometry::validate() const {
  const auto n = [](uint64_t v) { return std::to_string(v); };
  if (channels == 0) return "nand.channels: must be > 0";
  if (chips_per_channel == 0) return "nand.chips_per_channel: must be > 0";
  if (dies_per_chip == 0) return "nand.dies_per_chip: must be > 0";
  if (planes_per_die == 0) return "nand.planes_per_die: must be > 0";
  if (blocks_per_plane < 4) return "nand.blocks_per_plane: must be >= 4";
  if (pages_per_block == 0 || pages_per_block % bits() != 0)
    return "nand.pages_per_block: " + n(pages_per_block) +
           " is not a positive multiple of the bits per cell (" + n(bits()) + " for nand.cell " +
           to_string(cell) + ")";
  if (sector_size == 0 || page_size % sector_size != 0)
    return "nand.page_size: " + n(page_size) + " is not a multiple of nand.sector_size " +
           n(sector_size);
  if (sectors_per_page() > 32)
    return "nand.page_size: at most 32 sectors per page (" + n(page_size) + " / nand.sector_size " +
           n(sector_size) + " = " + n(sectors_per_page()) + ")";
  if (pages() >= 0xffffffffull) return "nand: " + n(pages()) + " physical pages, more than 2^32-1";
  return {};
}

}  // namespace ssdtlm::nand
