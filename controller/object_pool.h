// A free list of objects that live as long as the pool: get() reuses a returned object (its
// fields as they were left) or makes a new one, put() returns it. No allocation once the pool
// has grown to the most objects in use at once (the controller's hot path).
#pragma once

#include <memory>
#include <vector>

namespace ssdtlm {

template <typename T>
class ObjectPool {
 public:
  T* get() {
    if (free_.empty()) {
      all_.push_back(std::make_unique<T>());
      return all_.back().get();
    }
    T* t = free_.back();
    free_.pop_back();
    return t;
  }
  void put(T* t) { free_.push_back(t); }
  // The object the next get() returns (made now if none is free).
  T* peek() {
    if (free_.empty()) {
      all_.push_back(std::make_unique<T>());
      free_.push_back(all_.back().get());
    }
    return free_.back();
  }
  size_t size() const { return all_.size(); }

 private:
  std::vector<std::unique_ptr<T>> all_;
  std::vector<T*> free_;
};

}  // namespace ssdtlm
