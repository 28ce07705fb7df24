#pragma once
// An allocator for large arrays that start out all zero: the memory comes from calloc (from
// mmap at 1 MiB and more), and elements constructed without a value are left as it came (zero)
// instead of being written. A large array is fresh pages from the kernel, so the parts of it
// nothing ever writes cost no resident memory and no page faults (a tensor's per-byte state
// of which a run touches a few cells, or the symbolic bookkeeping of a concrete run).
#include <cstddef>
#include <cstdlib>
#include <sys/mman.h>
#include <new>
#include <utility>

namespace racer::support {

template <class T>
struct ZeroPageAllocator {
  using value_type = T;

  ZeroPageAllocator() = default;
  template <class U>
  ZeroPageAllocator(const ZeroPageAllocator<U>&) {}

  // From kMapped bytes on, straight from the kernel: fresh zero pages, given back when freed.
  // (A calloc that malloc serves from memory freed before must write its zeros, and memory a
  // helper thread freed stays in that thread's arena, where nothing else reuses it.)
  static constexpr size_t kMapped = size_t{1} << 20;

  T* allocate(size_t n) {
    const size_t bytes = (n ? n : 1) * sizeof(T);
    if (bytes >= kMapped) {
      void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (p == MAP_FAILED) throw std::bad_alloc();
      return static_cast<T*>(p);
    }
    if (void* p = std::calloc(n ? n : 1, sizeof(T))) return static_cast<T*>(p);
    throw std::bad_alloc();
  }
  void deallocate(T* p, size_t n) noexcept {
    const size_t bytes = (n ? n : 1) * sizeof(T);
    if (bytes >= kMapped) munmap(p, bytes);
    else std::free(p);
  }

  // Without a value: no write (calloc's zero is the value; T must be one whose zero bytes
  // are its value-initialized state, as for the integers and enums this serves).
  template <class U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }

  template <class U>
  bool operator==(const ZeroPageAllocator<U>&) const {
    return true;
  }
};

}  // namespace racer::support
