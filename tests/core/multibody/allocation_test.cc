// The algorithms write into the storage MultibodyData sized once: no heap allocation per call.
//
// Eigen allocates with std::malloc, so this file interposes malloc and friends for the whole
// multibody test binary (glibc supports replacing them, provided all four are replaced; see
// "Replacing malloc" in the glibc manual) and counts calls while a check is running. Under
// AddressSanitizer, which owns malloc (and calls it while it starts, before an instrumented
// replacement could run), the count comes from the sanitizer's allocation hooks instead.
#include <gtest/gtest.h>

#include <atomic>
#include <cstddef>

#include "core/multibody/configuration.h"
#include "core/multibody/dynamics.h"
#include "core/multibody/energy.h"
#include "core/multibody/kinematics.h"
#include "tests/core/multibody/multibody_test_util.h"

#if defined(__SANITIZE_ADDRESS__)  // gcc
#define ARENA_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)  // clang
#define ARENA_ASAN 1
#endif
#endif

#if defined(__GLIBC__) || defined(ARENA_ASAN)
#define ARENA_COUNTS_ALLOCATIONS 1
namespace {
std::atomic<long> g_allocations{0};
}  // namespace
#endif

#if defined(ARENA_ASAN)
// The sanitizer runtime's hook API (sanitizer/allocator_interface.h, which clang ships and gcc
// does not; gcc's libasan exports the function all the same).
extern "C" int __sanitizer_install_malloc_and_free_hooks(void (*malloc_hook)(const volatile void*, std::size_t),
                                                         void (*free_hook)(const volatile void*));
namespace {
void OnMalloc(const volatile void*, std::size_t) { g_allocations.fetch_add(1, std::memory_order_relaxed); }
void OnFree(const volatile void*) {}
[[maybe_unused]] const int kHooksInstalled = __sanitizer_install_malloc_and_free_hooks(OnMalloc, OnFree);
}  // namespace
#elif defined(__GLIBC__)
extern "C" {
void* __libc_malloc(std::size_t size);
void* __libc_calloc(std::size_t n, std::size_t size);
void* __libc_realloc(void* p, std::size_t size);
void __libc_free(void* p);

void* malloc(std::size_t size) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  return __libc_malloc(size);
}
void* calloc(std::size_t n, std::size_t size) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  return __libc_calloc(n, size);
}
void* realloc(void* p, std::size_t size) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  return __libc_realloc(p, size);
}
void free(void* p) { __libc_free(p); }
}
#endif

namespace arena {
namespace {

#if defined(ARENA_COUNTS_ALLOCATIONS)
template <typename F>
long CountAllocations(F&& f) {
  const long before = g_allocations.load();
  f();
  return g_allocations.load() - before;
}

void ExpectNoAllocation(const MultibodyModel& model) {
  MultibodyData data(model);
  std::mt19937_64 rng(8001);
  const VecX q = RandomConfiguration(model, rng);
  const VecX v = testing::RandomVec(rng, model.nv()), a = testing::RandomVec(rng, model.nv());
  const std::vector<Force> f = testing::RandomWrenches(rng, model.num_bodies());
  VecX x = a;
  EXPECT_EQ(CountAllocations([&] { ForwardKinematics(model, data, q); }), 0);
  EXPECT_EQ(CountAllocations([&] { ForwardKinematics(model, data, q, v); }), 0);
  EXPECT_EQ(CountAllocations([&] { ForwardKinematics(model, data, q, v, a); }), 0);
  EXPECT_EQ(CountAllocations([&] { Crba(model, data, q); }), 0);
  EXPECT_EQ(CountAllocations([&] { FactorizeMassMatrix(model, data); }), 0);
  EXPECT_EQ(CountAllocations([&] { SolveMassMatrix(model, data, x); }), 0);
  EXPECT_EQ(CountAllocations([&] { Rnea(model, data, q, v, a); }), 0);
  EXPECT_EQ(CountAllocations([&] { Rnea(model, data, q, v, a, &f); }), 0);
  EXPECT_EQ(CountAllocations([&] { Aba(model, data, q, v, a); }), 0);
  EXPECT_EQ(CountAllocations([&] { Aba(model, data, q, v, a, &f); }), 0);
  EXPECT_EQ(CountAllocations([&] { RneaDerivatives(model, data, q, v, a, &f); }), 0);
  EXPECT_EQ(CountAllocations([&] { AbaDerivatives(model, data, q, v, a, &f); }), 0);
  EXPECT_EQ(CountAllocations([&] { KineticEnergy(model, data, q, v); }), 0);
  EXPECT_EQ(CountAllocations([&] { SpatialMomentum(model, data, q, v); }), 0);
}
#endif

TEST(Allocation, HotPathDoesNotAllocate) {
#if !defined(ARENA_COUNTS_ALLOCATIONS)
  GTEST_SKIP() << "counting allocations needs glibc or AddressSanitizer";
#else
  // Random axes, and coordinate axes (the revolute fast path of spatial_ops.h).
  ExpectNoAllocation(testing::RandomTree(8000, {.num_bodies = 16}));
  ExpectNoAllocation(testing::CoordinateAxisTree(8000, {.num_bodies = 16}));
  const MultibodyModel model = testing::RandomTree(8000, {.num_bodies = 4});
  std::mt19937_64 rng(8001);
  const VecX q = RandomConfiguration(model, rng);
  const VecX v = testing::RandomVec(rng, model.nv());
  // The counter does see allocations.
  EXPECT_GT(CountAllocations([&] {
              VecX tmp = Integrate(model, q, v);
              (void)tmp;
            }),
            0);
#endif
}

}  // namespace
}  // namespace arena
