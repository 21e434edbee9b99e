#include "models/ssd.h"

namespace ssdtlm::models {

Ssd::Ssd(sc_core::sc_module_name name, const SsdConfig& cfg, traces::TraceSource& src,
         const HostOptions& hopt, bool integrity)
    : sc_module(name),
      host("host", cfg, src, hopt),
      ctrl("ctrl", cfg, integrity),
      dram("dram", cfg) {
  host.isock.bind(ctrl.host_tsock);
  host.set_send_ahead(ctrl.core().arrival_stateless());
  ctrl.dram_isock.bind(dram.tsock);
  for (uint32_t c = 0; c < cfg.geo.channels; ++c) {
    std::string n = "channel_" + std::to_string(c);
    channels.push_back(std::make_unique<FlashChannel>(n.c_str(), cfg, c));
    ctrl.flash_isock[c]->bind(channels.back()->tsock);
  }
}

uint64_t Ssd::events() const {
  uint64_t e = host.events() + ctrl.events();
  for (const auto& c : channels) e += c->events();
  return e;
}

uint64_t Ssd::activations() const {
  uint64_t a = host.activations() + ctrl.activations();
  for (const auto& c : channels) a += c->activations();
  return a;
}

}  // namespace ssdtlm::models
