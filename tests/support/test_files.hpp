#pragma once
// Files of the tests, in one place: the sample matrices, scratch paths and directories, and a
// file read back whole. Header-only, so that each test executable names its own scratch
// directory with SPMV_TEST_TMP (from CMake; the CLI tests each have one, so that test binaries
// run in parallel do not share files); one without it uses spmv_tests under the system's
// temporary directory. SPMV_SOURCE_DIR (from CMake) locates sample_matrices/.
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace spmv::test {

#ifdef SPMV_SOURCE_DIR
/// A file of sample_matrices/.
inline std::string sample(const std::string& name)
{
    return std::string(SPMV_SOURCE_DIR) + "/sample_matrices/" + name;
}
#endif

/// This executable's scratch directory (created on first use).
inline std::filesystem::path scratch_dir()
{
#ifdef SPMV_TEST_TMP
    const std::filesystem::path dir = SPMV_TEST_TMP;
#else
    const auto dir = std::filesystem::temp_directory_path() / "spmv_tests";
#endif
    std::filesystem::create_directories(dir);
    return dir;
}

/// A path in the scratch directory (whatever is there is left as it is).
inline std::string tmp(const std::string& name)
{
    return (scratch_dir() / name).string();
}

/// An empty directory in the scratch directory, for one test case: whatever an earlier run
/// left there is removed first.
inline std::filesystem::path fresh_dir(const std::string& name)
{
    const auto dir = scratch_dir() / name;
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

/// The bytes of file `p`; empty when it cannot be read (a file not written yet reads empty:
/// callers compare the contents).
inline std::string slurp(const std::filesystem::path& p)
{
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace spmv::test
