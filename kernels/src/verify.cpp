// GPU verification against the double-precision CSR reference (host logic only).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <spmv/error.hpp>
#include <spmv/gpu/memory.hpp>
#include <spmv/gpu/verify.hpp>

namespace spmv::gpu {
namespace {

template <typename V>
std::vector<V> random_values(std::size_t n, std::mt19937& rng)
{
    std::uniform_real_distribution<double> d(-1.0, 1.0);
    std::vector<V> v(n);
    for (auto& e : v) {
        e = static_cast<V>(d(rng));
    }
    return v;
}

struct Compare {
    double scaled = 0.0;  // max_i |got - ref| / s_i
    double normwise = 0.0;
    std::int64_t worst_row = -1;
};

// ref = alpha A x + beta y_in in double, s = |alpha| |A| |x| + |beta| |y_in|, from V data.
template <typename V>
void reference(const Csr<V, std::int32_t>& a, double alpha, const std::vector<V>& x, double beta,
               const std::vector<V>* y_in, std::vector<double>& ref, std::vector<double>& scale)
{
    ref.assign(static_cast<std::size_t>(a.num_rows), 0.0);
    scale.assign(ref.size(), 0.0);
    for (std::int32_t i = 0; i < a.num_rows; ++i) {
        double sum = 0.0;
        double abs_sum = 0.0;
        for (auto k = a.row_ptrs[i]; k < a.row_ptrs[i + 1]; ++k) {
            const double p =
                static_cast<double>(a.values[k]) * static_cast<double>(x[a.col_idxs[k]]);
            sum += p;
            abs_sum += std::abs(p);
        }
        const double yi = y_in != nullptr ? static_cast<double>((*y_in)[i]) : 0.0;
        ref[i] = alpha * sum + (beta != 0.0 ? beta * yi : 0.0);
        scale[i] = std::abs(alpha) * abs_sum + (beta != 0.0 ? std::abs(beta * yi) : 0.0);
    }
}

// got[k] is row perm[k] when perm is given, row k otherwise.
template <typename V>
Compare compare(const std::vector<V>& got, const std::vector<double>& ref,
                const std::vector<double>& scale, const std::vector<std::int32_t>* perm)
{
    Compare c;
    double num = 0.0;
    double den = 0.0;
    for (std::size_t k = 0; k < got.size(); ++k) {
        const std::size_t i = perm != nullptr ? static_cast<std::size_t>((*perm)[k]) : k;
        const double g = static_cast<double>(got[k]);
        const double diff = std::abs(g - ref[i]);
        double e = 0.0;
        if (!std::isfinite(g)) {
            e = std::numeric_limits<double>::infinity();
        } else if (diff > 0.0) {
            e = scale[i] > 0.0 ? diff / scale[i] : std::numeric_limits<double>::infinity();
        }
        if (e > c.scaled || (std::isnan(e) && c.worst_row < 0)) {
            c.scaled = e;
            c.worst_row = static_cast<std::int64_t>(i);
        }
        num += std::isfinite(g) ? diff * diff : std::numeric_limits<double>::infinity();
        den += ref[i] * ref[i];
    }
    c.normwise = den > 0.0 ? std::sqrt(num / den) : std::sqrt(num);
    return c;
}

template <typename V>
std::vector<V> download(const DeviceBuffer<V>& b)
{
    return b.to_host();
}

}  // namespace

template <typename V>
double verify_tolerance(std::int64_t max_row_length)
{
    const double u = std::numeric_limits<V>::epsilon() / 2.0;  // unit roundoff
    const double floor = sizeof(V) == 8 ? 1e-12 : 1e-5;
    return std::max(floor, 2.0 * static_cast<double>(max_row_length + 3) * u);
}

template <typename V>
VerifyResult verify(const DeviceMatrix<V>& m, const Csr<V, std::int32_t>& a,
                    const VerifyOptions& options)
{
    SPMV_EXPECTS(m.num_rows() == a.num_rows && m.num_cols() == a.num_cols,
                 "verify: device matrix and CSR reference differ in size");
    VerifyResult r;
    for (std::int32_t i = 0; i < a.num_rows; ++i) {
        r.max_row_length =
            std::max<std::int64_t>(r.max_row_length, a.row_ptrs[i + 1] - a.row_ptrs[i]);
    }
    r.tolerance = verify_tolerance<V>(r.max_row_length);

    std::mt19937 rng(options.seed);
    const auto rows = static_cast<std::size_t>(a.num_rows);
    const auto x_host = random_values<V>(static_cast<std::size_t>(a.num_cols), rng);
    const auto y_host = random_values<V>(rows, rng);
    const auto alpha = static_cast<V>(options.alpha);
    const auto beta = static_cast<V>(options.beta);
    auto x = DeviceBuffer<V>::from_host(x_host, "verify x");
    DeviceBuffer<V> y(rows, "verify y");
    std::vector<double> ref;
    std::vector<double> scale;
    std::int64_t worst_row = -1;

    // 1. general case, alpha and beta != 0
    y.upload(y_host);
    m.spmv(alpha, x.data(), beta, y.data());
    reference(a, alpha, x_host, beta, &y_host, ref, scale);
    auto c = compare(download(y), ref, scale, nullptr);
    r.error_general = c.scaled;
    r.normwise_error = c.normwise;
    worst_row = c.worst_row;

    // 2. beta = 0 must not read y: poison it with NaN
    std::vector<V> poison(rows, std::numeric_limits<V>::quiet_NaN());
    y.upload(poison);
    m.spmv(alpha, x.data(), V{0}, y.data());
    reference<V>(a, alpha, x_host, 0.0, nullptr, ref, scale);
    c = compare(download(y), ref, scale, nullptr);
    r.error_beta_zero = c.scaled;
    if (c.scaled > r.error_general) {
        worst_row = c.worst_row;
    }

    // 3. permuted formats: y in the permuted basis, then the separate un-permute step
    if (m.permuted()) {
        std::vector<std::int32_t> perm(rows);
        if (rows > 0) {
            detail::copy_bytes(perm.data(), m.op().device_row_perm(), rows * sizeof(std::int32_t),
                               detail::CopyKind::device_to_host);
        }
        std::vector<V> y_perm_in(rows);
        for (std::size_t k = 0; k < rows; ++k) {
            y_perm_in[k] = y_host[static_cast<std::size_t>(perm[k])];
        }
        y.upload(y_perm_in);
        m.spmv(alpha, x.data(), beta, y.data(), RowOrder::permuted);
        reference(a, alpha, x_host, beta, &y_host, ref, scale);
        c = compare(download(y), ref, scale, &perm);
        DeviceBuffer<V> y_orig(rows, "verify y");
        y_orig.upload(poison);
        m.unpermute(y.data(), y_orig.data());
        const auto c2 = compare(download(y_orig), ref, scale, nullptr);
        r.error_permuted = std::max(c.scaled, c2.scaled);
        if (r.error_permuted > std::max(r.error_general, r.error_beta_zero)) {
            worst_row = c.scaled >= c2.scaled ? c.worst_row : c2.worst_row;
        }
    }
    synchronize();

    r.error = std::max({r.error_general, r.error_beta_zero, r.error_permuted});
    r.passed = r.error <= r.tolerance;  // false for NaN
    char buf[320];
    std::snprintf(
        buf, sizeof buf,
        "%s (%s) %s: error %.3g (alpha,beta %.3g, beta=0 poisoned %.3g, permuted %.3g), "
        "normwise %.3g, tolerance %.3g (max row length %lld)%s",
        m.variant().c_str(), sizeof(V) == 8 ? "double" : "float", r.passed ? "passed" : "FAILED",
        r.error, r.error_general, r.error_beta_zero, r.error_permuted, r.normwise_error,
        r.tolerance, static_cast<long long>(r.max_row_length),
        r.passed || worst_row < 0 ? "" : (", worst row " + std::to_string(worst_row)).c_str());
    r.message = buf;
    return r;
}

template <typename V>
VerifyResult verify(const KernelVariant& v, const Csr<V, std::int32_t>& a,
                    const FormatParams& params, const VerifyOptions& options)
{
    return verify(prepare(v, a, params), a, options);
}

template double verify_tolerance<float>(std::int64_t);
template double verify_tolerance<double>(std::int64_t);
template VerifyResult verify<float>(const DeviceMatrix<float>&, const Csr<float, std::int32_t>&,
                                    const VerifyOptions&);
template VerifyResult verify<double>(const DeviceMatrix<double>&, const Csr<double, std::int32_t>&,
                                     const VerifyOptions&);
template VerifyResult verify<float>(const KernelVariant&, const Csr<float, std::int32_t>&,
                                    const FormatParams&, const VerifyOptions&);
template VerifyResult verify<double>(const KernelVariant&, const Csr<double, std::int32_t>&,
                                     const FormatParams&, const VerifyOptions&);

}  // namespace spmv::gpu
