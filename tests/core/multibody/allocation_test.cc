// The algorithms write into the storage MultibodyData sized once: no heap allocation per call.
//
// Eigen allocates with std::malloc, so this file interposes malloc and friends for the whole
// multibody test binary (glibc supports replacing them, provided all four are replaced; see
// "Replacing malloc" in the glibc manual) and counts calls while a check is running.
#include <gtest/gtest.h>

#include <atomic>
#include <cstddef>

#include "core/multibody/configuration.h"
#include "core/multibody/dynamics.h"
#include "core/multibody/energy.h"
#include "core/multibody/kinematics.h"
#include "tests/core/multibody/multibody_test_util.h"

#if defined(__GLIBC__)
namespace {
std::atomic<long> g_allocations{0};
}  // namespace

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

#if defined(__GLIBC__)
template <typename F>
long CountAllocations(F&& f) {
  const long before = g_allocations.load();
  f();
  return g_allocations.load() - before;
}
#endif

TEST(Allocation, HotPathDoesNotAllocate) {
#if !defined(__GLIBC__)
  GTEST_SKIP() << "counting allocations needs glibc";
#else
  const MultibodyModel model = testing::RandomTree(8000, {.num_bodies = 16});
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
