// `arena export-design`: a co-design run's design rows as an OBJ file, one object per collider
// (its convex hull), and the errors that say what the CSV lacks.
#include "harness/design_export.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/common/error.h"
#include "tests/scratch_dir.h"

namespace arena {
namespace design_export_test {

using ::testing::HasSubstr;

std::string TempPath(const std::string& name) {
  static const testing::ScratchDir dir;  // this process's own, removed at exit
  return dir / name;
}

// A cube's 8 corners plus its centre (not a hull vertex) for collider "box", a tetrahedron for
// "tip", both at stage optimised of case c/codesign; the tetrahedron also at stage initial.
std::string WriteCsv(const std::string& extra_case = "") {
  std::ostringstream csv;
  csv << "case_id,model,record,stage,collider,vertex,x_m,y_m,z_m\n";
  csv << "c/codesign,sdrs,iteration,,,,,,\n";
  int v = 0;
  for (int i = 0; i < 8; ++i) {
    csv << "c/codesign,sdrs,design,optimised,box," << v++ << "," << (i & 1) << "," << ((i >> 1) & 1) << "," << ((i >> 2) & 1) << "\n";
  }
  csv << "c/codesign,sdrs,design,optimised,box," << v++ << ",0.5,0.5,0.5\n";
  const char* tetra[4] = {"0,0,0", "1,0,0", "0,1,0", "0,0,1"};
  for (const char* stage : {"optimised", "initial"}) {
    for (int i = 0; i < 4; ++i) csv << "c/codesign,sdrs,design," << stage << ",tip," << i << "," << tetra[i] << "\n";
  }
  if (!extra_case.empty()) {
    for (int i = 0; i < 4; ++i) csv << extra_case << ",sdrs,design,optimised,tip," << i << "," << tetra[i] << "\n";
  }
  const std::string path = TempPath("rows.csv");
  std::ofstream(path) << csv.str();
  return path;
}

TEST(DesignExport, WritesEachColliderAsItsHull) {
  DesignExportOptions o;
  o.csv = WriteCsv();
  o.out = TempPath("design.obj");
  EXPECT_EQ(ExportDesign(o), 2);
  std::ifstream in(o.out);
  std::vector<std::string> objects;
  int vertices = 0, faces = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("o ", 0) == 0) objects.push_back(line.substr(2));
    vertices += line.rfind("v ", 0) == 0;
    faces += line.rfind("f ", 0) == 0;
  }
  EXPECT_EQ(objects, (std::vector<std::string>{"box", "tip"}));
  EXPECT_EQ(vertices, 9 + 4);  // every design point, the cube's centre too (no face uses it)
  EXPECT_EQ(faces, 12 + 4);    // triangles, the tetrahedron's indices after the cube's 9
  o.stage = "initial";
  EXPECT_EQ(ExportDesign(o), 1);  // only the tetrahedron has an initial design
  EXPECT_TRUE(IsDesignFile(o.out));
  EXPECT_FALSE(IsDesignFile(o.csv));
}

// arena inspect of a design file lists each hull with its volume (the unit cube: 1 m^3).
TEST(DesignExport, InspectShowsEachHull) {
  DesignExportOptions o;
  o.csv = WriteCsv();
  o.out = TempPath("inspect.obj");
  ExportDesign(o);
  ::testing::internal::CaptureStdout();
  EXPECT_EQ(InspectDesign(o.out), 0);
  const std::string out = ::testing::internal::GetCapturedStdout();
  EXPECT_THAT(out, HasSubstr("2 hulls"));
  EXPECT_THAT(out, ::testing::ContainsRegex("box +9 +8 +12 +1 "));
  EXPECT_THAT(out, ::testing::ContainsRegex("tip +4 +4 +4 +0.1667 "));
}

TEST(DesignExport, SaysWhatTheCsvLacks) {
  DesignExportOptions o;
  o.out = TempPath("bad.obj");
  o.csv = WriteCsv("d/codesign");
  try {
    ExportDesign(o);
    ADD_FAILURE() << "two cases, none chosen";
  } catch (const InvalidArgument& e) {
    EXPECT_THAT(e.what(), HasSubstr("several cases have designs, choose one with --case: c/codesign, d/codesign"));
  }
  o.case_id = "d/codesign";
  EXPECT_EQ(ExportDesign(o), 1);
  o.case_id = "e/codesign";
  EXPECT_THROW(ExportDesign(o), InvalidArgument);
  o.case_id = "d/codesign";
  o.stage = "initial";
  try {
    ExportDesign(o);
    ADD_FAILURE() << "no initial rows for d/codesign";
  } catch (const InvalidArgument& e) {
    EXPECT_THAT(e.what(), HasSubstr("has no design rows of stage 'initial'; stages: optimised"));
  }
  const std::string plain = TempPath("plain.csv");
  std::ofstream(plain) << "case_id,model,loss\na,sdrs,1\n";
  o.csv = plain;
  EXPECT_THROW(ExportDesign(o), InvalidArgument);
}

}  // namespace design_export_test
}  // namespace arena
