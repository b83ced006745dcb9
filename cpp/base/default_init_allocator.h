// An allocator whose containers leave new elements default-initialised, so a
// std::vector<char> grown as an I/O buffer is not zero-filled first: a 1 MiB
// read buffer then costs only the pages a read actually writes (a small file
// touches a few), not a megabyte of memset and page faults per open file.
#pragma once
#include <memory>
#include <new>
#include <type_traits>
#include <utility>

namespace accelsim {

template <class T>
struct DefaultInitAllocator : std::allocator<T> {
  using std::allocator<T>::allocator;
  template <class U>
  struct rebind {
    using other = DefaultInitAllocator<U>;
  };
  template <class U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

}  // namespace accelsim
