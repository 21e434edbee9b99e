// TLM-2.0 plumbing shared by the models: extensions that carry a FlashOp or a HostCmd inside a
// generic payload, and a memory manager that recycles payloads (no allocation per transaction
// once the pool has grown to the peak number in flight).
#pragma once

#include <cassert>
#include <memory>
#include <tlm>
#include <vector>

#include "controller/flash_op.h"

namespace ssdtlm::models {

template <typename T>
struct PtrExtension : tlm::tlm_extension<PtrExtension<T>> {
  T* ptr = nullptr;
  tlm::tlm_extension_base* clone() const override {
    auto* e = new PtrExtension<T>;
    e->ptr = ptr;
    return e;
  }
  void copy_from(const tlm::tlm_extension_base& other) override {
    ptr = static_cast<const PtrExtension<T>&>(other).ptr;
  }
};
using FlashOpExt = PtrExtension<FlashOp>;
using HostCmdExt = PtrExtension<HostCmd>;

// Pool of payloads, each created once with an extension of type Ext attached. The payloads are
// of a derived type that also holds the pointer in a plain member: of() reads it there (a
// static_cast, no extension lookup per transaction), so of() takes only payloads of a pool of
// the same Ext. The extension carries the same pointer for other TLM code; the pool keeps each
// payload's extension beside it, so acquire() sets it without a lookup either.
template <typename Ext>
class PayloadPool : public tlm::tlm_mm_interface {
  using Ptr = decltype(Ext::ptr);
  struct Pooled : tlm::tlm_generic_payload {
    explicit Pooled(tlm::tlm_mm_interface* mm) : tlm::tlm_generic_payload(mm) {}
    Ptr ptr = nullptr;
    Ext* ext = nullptr;  // its extension (set once: no lookup per transaction)
  };

 public:
  tlm::tlm_generic_payload* acquire(Ptr ptr) {
    Pooled* gp;
    if (free_.empty()) {
      all_.push_back(std::make_unique<Pooled>(this));
      gp = all_.back().get();
      gp->ext = new Ext;
      gp->set_extension(gp->ext);
    } else {
      gp = free_.back();
      free_.pop_back();
    }
    gp->acquire();
    gp->ptr = ptr;
    gp->ext->ptr = ptr;
    gp->set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    return gp;
  }
  void free(tlm::tlm_generic_payload* gp) override { free_.push_back(static_cast<Pooled*>(gp)); }
  static Ptr of(tlm::tlm_generic_payload& gp) {
    assert(gp.template get_extension<Ext>() &&
           gp.template get_extension<Ext>()->ptr == static_cast<Pooled&>(gp).ptr);
    return static_cast<Pooled&>(gp).ptr;
  }
  size_t allocated() const { return all_.size(); }
  ~PayloadPool() override {
    for (auto& gp : all_) gp->free_all_extensions();
  }

 private:
  std::vector<std::unique_ptr<Pooled>> all_;
  std::vector<Pooled*> free_;
};

}  // namespace ssdtlm::models
