#pragma once
// An allocator for the big, randomly probed arrays of the expression store (its unique
// table, nodes and operand slots): blocks of 2 MiB and more are aligned to 2 MiB and offered
// to the kernel as transparent huge pages, so a probe costs a cache miss but rarely also a
// TLB miss. Where the kernel does not take the advice, this is an aligned allocation.
#include <sys/mman.h>

#include <cstddef>
#include <cstdlib>
#include <new>

namespace racer::support {

template <class T>
struct HugePageAllocator {
  using value_type = T;
  static constexpr size_t kHuge = size_t(2) << 20;

  HugePageAllocator() = default;
  template <class U>
  HugePageAllocator(const HugePageAllocator<U>&) {}

  T* allocate(size_t n) {
    size_t bytes = n * sizeof(T);
    if (bytes < kHuge) {
      if (void* p = std::malloc(bytes)) return static_cast<T*>(p);
      throw std::bad_alloc();
    }
    size_t rounded = (bytes + kHuge - 1) / kHuge * kHuge;
    void* p = std::aligned_alloc(kHuge, rounded);
    if (!p) throw std::bad_alloc();
    madvise(p, rounded, MADV_HUGEPAGE);  // advice only: failure leaves ordinary pages
    return static_cast<T*>(p);
  }
  void deallocate(T* p, size_t) noexcept { std::free(p); }

  template <class U>
  bool operator==(const HugePageAllocator<U>&) const {
    return true;
  }
};

}  // namespace racer::support
