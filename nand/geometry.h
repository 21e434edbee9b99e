// NAND organisation: cell types, page types, geometry and physical page numbering.
// The mapping from a page index inside a block to its word line and page type is defined
// here and only here (page_type_of / wordline_of).
#pragma once

#include <cstdint>
#include <string>

namespace ssdtlm::nand {

using Tick = uint64_t;  // simulated time in picoseconds (SystemC's default resolution)
constexpr Tick kPsPerNs = 1000;
constexpr Tick kPsPerUs = 1000 * 1000;
constexpr Tick kPsPerMs = 1000 * 1000 * 1000;

enum class CellType : uint8_t { SLC = 1, MLC = 2, TLC = 3, QLC = 4 };
inline int bits_per_cell(CellType c) {
  return static_cast<int>(c);
}
const char* to_string(CellType c);
bool parse_cell_type(const std::string& s, CellType& out);

// Name of page type `t` (0 = fastest) for a cell type: QLC LSB/CLSB/CMSB/MSB, TLC LSB/CSB/MSB,
// MLC LSB/MSB, SLC SLC. These names are the keys of flash.reads_by_page_type in the result JSON.
const char* page_type_name(CellType c, int t);

// How a word line is programmed.
//  one_shot: all bits_per_cell pages of a word line in one full-sequence program (FSP) operation;
//  per_page: each page programmed on its own, with a latency per page type (SSDsim TLC model).
enum class ProgramMode : uint8_t { OneShot, PerPage };

using Ppn = uint32_t;  // physical page number, dense over the whole drive
constexpr Ppn kNoPpn = 0xffffffffu;

struct Geometry {
  CellType cell = CellType::QLC;
  uint32_t channels = 8;
  uint32_t chips_per_channel = 2;
  uint32_t dies_per_chip = 1;
  uint32_t planes_per_die = 2;
  uint32_t blocks_per_plane = 4096;
  uint32_t pages_per_block = 1024;  // a multiple of bits_per_cell
  uint32_t page_size = 8192;        // bytes
  uint32_t sector_size = 4096;      // bytes; host-visible mapping granularity inside a page

  // Derived counts.
  uint32_t dies_per_channel() const { return chips_per_channel * dies_per_chip; }
  uint32_t dies() const { return channels * dies_per_channel(); }
  uint32_t planes() const { return dies() * planes_per_die; }
  uint64_t blocks() const { return uint64_t(planes()) * blocks_per_plane; }
  uint64_t pages() const { return blocks() * pages_per_block; }
  uint64_t capacity_bytes() const { return pages() * page_size; }
  uint32_t sectors_per_page() const { return page_size / sector_size; }
  int bits() const { return bits_per_cell(cell); }
  uint32_t wordlines_per_block() const { return pages_per_block / bits(); }

  // Page index inside a block -> page type / word line. Pages of one word line are consecutive:
  // page p lies on word line p / bits and has type p % bits (0 = LSB, the fastest to read).
  int page_type_of(uint32_t page) const { return static_cast<int>(page % bits()); }
  uint32_t wordline_of(uint32_t page) const { return page / bits(); }

  // Dense numbering. Planes are numbered channel-first so that consecutive plane indices land on
  // different channels (the striping order of dynamic allocation):
  //   plane = channel + channels * (chip + chips * (die + dies_per_chip * plane_in_die))
  // A die is identified by (channel, die_in_channel) with die_in_channel = chip * dies_per_chip +
  // die. block = plane * blocks_per_plane + block_in_plane; ppn = block * pages_per_block + page.
  uint32_t channel_of_plane(uint32_t plane) const { return plane % channels; }
  uint32_t die_in_channel_of_plane(uint32_t plane) const {
    const uint32_t stripe = (plane / channels) % dies_per_channel();  // chip + chips * die
    return (stripe % chips_per_channel) * dies_per_chip + stripe / chips_per_channel;
  }
  uint32_t plane_in_die_of_plane(uint32_t plane) const {
    return plane / (channels * dies_per_channel());
  }
  // Global die index: channel * dies_per_channel + die_in_channel.
  uint32_t die_of_plane(uint32_t plane) const {
    return channel_of_plane(plane) * dies_per_channel() + die_in_channel_of_plane(plane);
  }
  uint32_t plane_of_block(uint64_t block) const {
    return static_cast<uint32_t>(block / blocks_per_plane);
  }
  uint64_t block_of(Ppn ppn) const { return ppn / pages_per_block; }
  uint32_t page_of(Ppn ppn) const { return ppn % pages_per_block; }
  Ppn ppn_of(uint64_t block, uint32_t page) const {
    return static_cast<Ppn>(block * pages_per_block + page);
  }

  // Empty string when consistent, else a message naming the offending key.
  std::string validate() const;
};

}  // namespace ssdtlm::nand
