#include <gtest/gtest.h>

#include "facts/image_facts.h"
#include "test_support.h"
#include "view_builder.h"

namespace imgaudit {
namespace {

using test::ViewBuilder;

// bin/python3 takes its version from lib/python3.N beside it; a folder "python3." names none (it once
// threw std::invalid_argument out of the audit: found by fuzz.facts).
TEST(FactsPython, InterpreterVersionFromItsLibFolderIgnoresOneWithoutANumber) {
  test::TempDir dir;
  ASSERT_TRUE(test::compile_c("gcc", test::kHelloC, dir / "python3"));
  ViewBuilder b;
  b.elf_file("usr/bin/python3", dir / "python3");
  b.dir("usr/lib/python3.");
  b.dir("usr/lib/python3.11");
  ImageFacts f = collect_facts(ImageInfo(), b.view);
  ASSERT_EQ(f.python.interpreters.size(), 1u);
  EXPECT_EQ(f.python.interpreters[0].version, "3.11");
}

TEST(FactsPython, DistInfoNameVersionTagsAndPurelib) {
  test::TempDir dir;
  ASSERT_TRUE(test::compile_c("gcc", test::kLibFooC, dir / "_speedups.so", "-shared -fPIC"));
  ASSERT_TRUE(test::compile_c("gcc", test::kHelloC, dir / "python3.12"));

  ViewBuilder b;
  const std::string site = "usr/local/lib/python3.12/site-packages";
  b.elf_file("usr/local/bin/python3.12", dir / "python3.12");
  b.symlink("usr/local/bin/python3", "python3.12");
  b.dir("usr/local/lib/python3.12/lib-dynload");
  b.text(site + "/markupsafe-2.1.5.dist-info/METADATA",
         "Metadata-Version: 2.1\nName: MarkupSafe\nVersion: 2.1.5\nSummary: Safely add untrusted strings\n\n"
         "Name: not-a-header\n");
  b.text(site + "/markupsafe-2.1.5.dist-info/WHEEL",
         "Wheel-Version: 1.0\nGenerator: bdist_wheel (0.42.0)\nRoot-Is-Purelib: false\n"
         "Tag: cp312-cp312-manylinux_2_17_x86_64\nTag: cp312-cp312-manylinux2014_x86_64\n");
  b.elf_file(site + "/markupsafe/_speedups.cpython-312-x86_64-linux-gnu.so", dir / "_speedups.so");
  b.text(site + "/requests-2.32.3.dist-info/METADATA", "Name: requests\nVersion: 2.32.3\n");
  b.text(site + "/requests-2.32.3.dist-info/WHEEL", "Root-Is-Purelib: true\nTag: py3-none-any\n");
  b.text("usr/lib/python3/dist-packages/six-1.16.0.dist-info/METADATA", "Name: six\nVersion: 1.16.0\n");
  b.text("opt/not-a-site/x-1.0.dist-info/METADATA", "Name: x\nVersion: 1.0\n");

  ImageFacts f = collect_facts(ImageInfo(), b.view);
  const PythonFacts& py = f.python;
  ASSERT_EQ(py.interpreters.size(), 1u);
  EXPECT_EQ(py.interpreters[0].path, "usr/local/bin/python3.12");
  EXPECT_EQ(py.interpreters[0].version, "3.12");
  EXPECT_EQ(py.interpreters[0].libc, LibcKind::Glibc);

  EXPECT_EQ(py.site_dirs, (std::vector<std::string>{"usr/lib/python3/dist-packages", site}));
  ASSERT_EQ(py.dists.size(), 3u);
  const DistInfo& six = py.dists[0];
  EXPECT_EQ(six.name, "six");
  EXPECT_EQ(six.site_dir, "usr/lib/python3/dist-packages");
  EXPECT_EQ(six.python_version, "");
  EXPECT_FALSE(six.root_is_purelib);

  const DistInfo& ms = py.dists[1];
  EXPECT_EQ(ms.path, site + "/markupsafe-2.1.5.dist-info");
  EXPECT_EQ(ms.site_dir, site);
  EXPECT_EQ(ms.python_version, "3.12");
  EXPECT_EQ(ms.name, "MarkupSafe");
  EXPECT_EQ(ms.version, "2.1.5");
  EXPECT_EQ(ms.tags, (std::vector<std::string>{"cp312-cp312-manylinux_2_17_x86_64", "cp312-cp312-manylinux2014_x86_64"}));
  EXPECT_EQ(ms.root_is_purelib, false);

  const DistInfo& rq = py.dists[2];
  EXPECT_EQ(rq.name, "requests");
  EXPECT_EQ(rq.tags, std::vector<std::string>{"py3-none-any"});
  EXPECT_EQ(rq.root_is_purelib, true);

  EXPECT_EQ(py.extension_modules,
            std::vector<std::string>{site + "/markupsafe/_speedups.cpython-312-x86_64-linux-gnu.so"});
}

// The layer of a wheel's .dist-info folder: the rules name it, and the Dockerfile line behind it.
TEST(FactsPython, DistInfoKnowsTheLayerThatBroughtIt) {
  ViewBuilder b;
  const std::string site = "usr/local/lib/python3.12/site-packages";
  b.dir(site, 1);
  b.dir(site + "/six-1.16.0.dist-info", 3);
  b.text(site + "/six-1.16.0.dist-info/METADATA", "Name: six\nVersion: 1.16.0\n", 3);
  ImageFacts f = collect_facts(ImageInfo(), b.view);
  ASSERT_EQ(f.python.dists.size(), 1u);
  EXPECT_EQ(f.python.dists[0].layer, 3);
}

TEST(FactsPython, InterpreterVersionFromLibpythonOrSiblingLib) {
  test::TempDir dir;
  ASSERT_TRUE(test::compile_c("gcc", "int py_main(void) { return 0; }\n", dir / "libpython3.11.so.1.0",
                              "-shared -fPIC -Wl,-soname,libpython3.11.so.1.0"));
  ASSERT_TRUE(test::compile_c("gcc", "int py_main(void);\nint main(void) { return py_main(); }\n", dir / "python3",
                              "'" + dir / "libpython3.11.so.1.0" + "'"));
  ASSERT_TRUE(test::compile_c("musl-gcc", test::kHelloC, dir / "python3-musl"));

  ViewBuilder b;
  b.elf_file("usr/bin/python3", dir / "python3");
  b.elf_file("usr/lib/libpython3.11.so.1.0", dir / "libpython3.11.so.1.0");
  b.elf_file("opt/venv/bin/python3", dir / "python3-musl");
  b.dir("opt/venv/lib/python3.9");
  b.dir("opt/venv/lib/python3.10/site-packages");
  ImageFacts f = collect_facts(ImageInfo(), b.view);
  ASSERT_EQ(f.python.interpreters.size(), 2u);
  EXPECT_EQ(f.python.interpreters[0].path, "opt/venv/bin/python3");
  EXPECT_EQ(f.python.interpreters[0].version, "3.10");
  EXPECT_EQ(f.python.interpreters[0].libc, LibcKind::Musl);
  EXPECT_EQ(f.python.interpreters[1].path, "usr/bin/python3");
  EXPECT_EQ(f.python.interpreters[1].version, "3.11");
  EXPECT_EQ(f.python.site_dirs, std::vector<std::string>{"opt/venv/lib/python3.10/site-packages"});
}

}  // namespace
}  // namespace imgaudit
