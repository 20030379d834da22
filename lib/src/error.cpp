#include <spmv/error.hpp>

#include <cstdlib>
#include <regex>
#include <string>

namespace spmv {
namespace {

std::string located(const char* file, int line, const std::string& what)
{
    std::string f = file ? file : "?";
    // Keep the path short and stable: from the project's top-level directory on.
    for (const char* top : {"/lib/", "/kernels/", "/gui/", "/cli/", "/tests/", "/tutorials/"}) {
        if (auto pos = f.rfind(top); pos != std::string::npos) {
            f = f.substr(pos + 1);
            break;
        }
    }
    return f + ":" + std::to_string(line) + ": " + what;
}

}  // namespace

Error::Error(const char* file, int line, const std::string& what)
    : std::runtime_error(located(file, line, what))
{}

MatrixMarketError::MatrixMarketError(const char* file, int line, const std::string& source_name,
                                     std::int64_t input_line, const std::string& what)
    : Error(file, line,
            source_name + (input_line > 0 ? ":" + std::to_string(input_line) : std::string()) +
                ": " + what),
      input_line_(input_line)
{}

std::string user_message(const std::string& what)
{
    if (const char* d = std::getenv("SPMVLAB_DEBUG"); d != nullptr && std::string(d) == "1") {
        return what;
    }
    // a source location: a path ending in a C++ / CUDA source name, a line number, ": "
    static const std::regex location(R"((^|\s)[A-Za-z0-9_./+-]+\.(cpp|hpp|cu|cuh|h):[0-9]+: )");
    return std::regex_replace(what, location, "$1");
}

MemoryLimitExceeded::MemoryLimitExceeded(const char* file, int line, const std::string& what,
                                         std::uint64_t needed, std::uint64_t limit)
    : Error(file, line, what), needed_(needed), limit_(limit)
{}

}  // namespace spmv
