#pragma once
/// The words of a Matrix Market text (internal to lib/src/io): whitespace, tokens, the integer
/// and real numbers of the size line and the entries, and quoted() for the offending text in
/// an error message. Header-only: the entry reader's inner loop (matrix_market.cpp) calls them
/// on every line, and the banner and size-line parser (matrix_market_header.cpp) too.
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>
#include <string_view>
#include <system_error>

namespace spmv::io::detail {

/// The largest row or column count and entry count: what 32-bit indices can address.
inline constexpr std::int64_t index_limit = std::numeric_limits<std::int32_t>::max();

inline bool is_space(char c) noexcept
{
    return c == ' ' || c == '\t' || c == '\v' || c == '\f';
}

inline char lower(char c) noexcept
{
    return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

inline bool iequals(std::string_view a, std::string_view b) noexcept
{
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(),
                                              [](char x, char y) { return lower(x) == lower(y); });
}

/// A token for an error message: quoted, at most 40 characters, control bytes escaped.
inline std::string quoted(std::string_view t)
{
    std::string s = "'";
    const std::size_t shown = std::min<std::size_t>(t.size(), 40);
    for (std::size_t k = 0; k < shown; ++k) {
        const auto c = static_cast<unsigned char>(t[k]);
        if (c < 0x20 || c >= 0x7f) {
            const char* hex = "0123456789abcdef";
            s += "\\x";
            s += hex[c >> 4];
            s += hex[c & 15];
        } else {
            s += static_cast<char>(c);
        }
    }
    if (shown < t.size()) {
        s += "...";
    }
    return s + "'";
}

/// Whitespace-separated tokens of one line.
struct Tokens {
    const char* p;
    const char* end;

    explicit Tokens(std::string_view line) : p(line.data()), end(line.data() + line.size()) {}

    std::string_view next() noexcept
    {
        while (p < end && is_space(*p)) {
            ++p;
        }
        const char* b = p;
        while (p < end && !is_space(*p)) {
            ++p;
        }
        return {b, static_cast<std::size_t>(p - b)};
    }
    std::string_view rest() noexcept
    {
        while (p < end && is_space(*p)) {
            ++p;
        }
        return {p, static_cast<std::size_t>(end - p)};
    }
};

/// from_chars accepts no leading '+'; Matrix Market writers sometimes emit one.
inline const char* skip_plus(const char* b, const char* e) noexcept
{
    return (e - b > 1 && *b == '+' && b[1] != '-' && b[1] != '+') ? b + 1 : b;
}

enum class Parsed { ok, invalid, out_of_range };

inline Parsed parse_int(std::string_view t, std::int64_t& v) noexcept
{
    const char* e = t.data() + t.size();
    const auto [ptr, ec] = std::from_chars(skip_plus(t.data(), e), e, v);
    if (ec == std::errc::result_out_of_range && ptr == e) {
        return Parsed::out_of_range;
    }
    return (ec == std::errc{} && ptr == e && !t.empty()) ? Parsed::ok : Parsed::invalid;
}

inline Parsed parse_real(std::string_view t, double& v)
{
    const char* e = t.data() + t.size();
    const auto [ptr, ec] = std::from_chars(skip_plus(t.data(), e), e, v);
    if (ptr != e || t.empty() || (ec != std::errc{} && ec != std::errc::result_out_of_range)) {
        return Parsed::invalid;
    }
    if (ec == std::errc::result_out_of_range) {
        // Overflow is an error; underflow (e.g. 1e-400) reads as strtod reads it: 0 or subnormal.
        const std::string copy(t);
        errno = 0;
        v = std::strtod(copy.c_str(), nullptr);
        if (std::isinf(v)) {
            return Parsed::out_of_range;
        }
    }
    return Parsed::ok;
}

}  // namespace spmv::io::detail
