// The scene loaders behind `arena run --scene FILE` and `arena inspect FILE`, each reached
// through LoadScene so that the dispatch on the extension and the scene options run as well.
#include "core/common/error.h"
#include "core/scene/loader.h"
#include "tests/fuzz/fuzz_targets.h"

namespace arena::fuzz {
namespace {

int LoadAs(const std::uint8_t* data, std::size_t size, const std::string& file_name) {
  const std::string path = WriteFuzzInput(data, size, file_name);
  Scene scene;
  try {
    scene = LoadScene(path);
  } catch (const Error& e) {
    // The contract for bad input: an arena error that says something.
    if (std::string(e.what()).empty()) throw std::logic_error("an arena error without a message");
    return 0;
  }
  // Accepted: the scene must pass the checks every scene passes (a throw here escapes the
  // target, as a loader that let an invalid scene through should).
  scene.Validate();
  return 0;
}

}  // namespace

int FuzzUrdf(const std::uint8_t* data, std::size_t size) { return LoadAs(data, size, "input.urdf"); }
int FuzzMjcf(const std::uint8_t* data, std::size_t size) { return LoadAs(data, size, "input.xml"); }
int FuzzStl(const std::uint8_t* data, std::size_t size) { return LoadAs(data, size, "input.stl"); }
int FuzzObj(const std::uint8_t* data, std::size_t size) { return LoadAs(data, size, "input.obj"); }

}  // namespace arena::fuzz
