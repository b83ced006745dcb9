// A minimal self-registering test harness for the C++ behaviour tests
// (no third-party framework needed on a bare machine). Tests are named
// "<number>-<property>", e.g. "501-hit-latency"; the hundred names the
// subsystem (key: cpp/tests/README.md).
#pragma once
#include <concepts>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/time.h"

// Tests state expected times as plain numbers: a typed time compares with and
// prints as its count here (the core itself never mixes them).
namespace accelsim {
template <class Tag>
std::ostream& operator<<(std::ostream& os, Ticks<Tag> t) { return os << t.count(); }
template <class Tag, std::integral I>
constexpr bool operator==(Ticks<Tag> t, I n) { return t.count() == uint64_t(n); }
template <class Tag, std::integral I>
constexpr auto operator<=>(Ticks<Tag> t, I n) { return t.count() <=> uint64_t(n); }
}  // namespace accelsim

namespace accelsim::testing {

struct TestCase {
  const char* name;
  std::function<void()> body;
};

std::vector<TestCase>& registry();

struct Register {
  Register(const char* name, std::function<void()> body) {
    registry().push_back({name, std::move(body)});
  }
};

struct Failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace accelsim::testing

#define ACCELSIM_CAT2(a, b) a##b
#define ACCELSIM_CAT(a, b) ACCELSIM_CAT2(a, b)
#define TEST_CASE(name)                                                              \
  static void ACCELSIM_CAT(test_fn_, __LINE__)();                                    \
  static ::accelsim::testing::Register ACCELSIM_CAT(test_reg_, __LINE__)(             \
      name, ACCELSIM_CAT(test_fn_, __LINE__));                                        \
  static void ACCELSIM_CAT(test_fn_, __LINE__)()

#define CHECK(cond)                                                                  \
  do {                                                                               \
    if (!(cond))                                                                     \
      throw ::accelsim::testing::Failure(std::string(__FILE__) + ":" +               \
                                         std::to_string(__LINE__) + ": " #cond);     \
  } while (0)

#define CHECK_EQ(a, b)                                                               \
  do {                                                                               \
    auto _va = (a);                                                                  \
    auto _vb = (b);                                                                  \
    if (!(_va == _vb)) {                                                             \
      std::ostringstream _os;                                                        \
      _os << __FILE__ << ":" << __LINE__ << ": " #a " == " #b " (" << _va << " vs "  \
          << _vb << ")";                                                             \
      throw ::accelsim::testing::Failure(_os.str());                                 \
    }                                                                                \
  } while (0)

#define CHECK_THROWS(expr, ExcType)                                                  \
  do {                                                                               \
    bool _thrown = false;                                                            \
    try {                                                                            \
      expr;                                                                          \
    } catch (const ExcType&) {                                                       \
      _thrown = true;                                                                \
    }                                                                                \
    if (!_thrown)                                                                    \
      throw ::accelsim::testing::Failure(std::string(__FILE__) + ":" +               \
                                         std::to_string(__LINE__) +                  \
                                         ": expected " #ExcType " from " #expr);     \
  } while (0)
