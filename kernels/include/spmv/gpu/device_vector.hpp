#pragma once
/// DeviceVector: a vector with two images, one in host memory and one on the device, and a
/// record of which image is up to date (Barbieri §3: is_host / set_dev / sync). The device acts
/// as a "magnet": data stays where it was last written until someone asks for the other copy,
/// and a copy happens only when the requested image is stale. Byte counters let solvers report
/// their PCIe traffic and let tests assert that no needless copy happened.
///
///   DeviceVector<double> x(host_x);      // host image valid, nothing copied yet
///   A.spmv(1.0, x, 0.0, y);              // x copied once to the device; y written there
///   A.spmv(1.0, x, 0.0, y);              // no copy: x is valid on both sides
///   auto r = y.read_host();              // y copied once to the host
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <spmv/gpu/memory.hpp>

namespace spmv::gpu {

template <typename ValueType>
class DeviceVector {
public:
    /// Which image holds the current data.
    enum class Valid { host, device, both };

    DeviceVector() = default;
    /// n zeros, valid on the host (the device image is allocated but not yet written).
    explicit DeviceVector(std::size_t n);
    /// A copy of `host`, valid on the host only.
    explicit DeviceVector(std::span<const ValueType> host);
    /// n uninitialised entries valid on the device only (solver work vectors): no host memory
    /// is allocated until the host image is first asked for.
    static DeviceVector on_device(std::size_t n);
    /// A copy of `host` uploaded at once and valid on the device only: one host -> device copy
    /// straight from the caller's memory, no host image (a solver's right-hand side).
    static DeviceVector uploaded(std::span<const ValueType> host);

    std::size_t size() const noexcept { return size_; }
    Valid valid() const noexcept { return valid_; }
    /// Barbieri's is_host(): the host image is up to date.
    bool is_host() const noexcept { return valid_ != Valid::device; }
    /// The device image is up to date.
    bool is_device() const noexcept { return valid_ != Valid::host; }

    /// Barbieri's set_dev(): an operation wrote the device image; the host image is now stale.
    void set_dev() noexcept { valid_ = Valid::device; }
    /// The host image was written; the device image is now stale.
    void set_host() noexcept { valid_ = Valid::host; }

    /// Copies the device image to the host if (and only if) the host image is stale.
    void sync_to_host();
    /// Copies the host image to the device if (and only if) the device image is stale.
    void sync_to_device();
    /// Barbieri's sync(): makes both images equal, copying in whichever direction is needed.
    void sync();

    /// Read access on the host: syncs, both images stay valid.
    std::span<const ValueType> read_host();
    /// Write access on the host: syncs, then marks the device image stale.
    std::span<ValueType> host();
    /// Copies the current data into the caller's `out` (size() entries) without keeping a host
    /// image: a device -> host copy when the device image is the valid one (counted), a host
    /// copy otherwise.
    void copy_to(std::span<ValueType> out);
    /// Write access on the host for a full overwrite: no copy, device image marked stale.
    std::span<ValueType> host_for_overwrite();

    /// Read access on the device: syncs, both images stay valid.
    const ValueType* read_device();
    /// Read-write access on the device (e.g. y with beta != 0): syncs, marks the host stale.
    ValueType* device();
    /// Write-only access on the device (e.g. y with beta == 0): no copy, host marked stale.
    ValueType* device_for_overwrite() noexcept;

    /// Bytes copied so far in each direction (since construction or reset_counters()).
    std::size_t bytes_to_device() const noexcept { return bytes_to_device_; }
    std::size_t bytes_to_host() const noexcept { return bytes_to_host_; }
    int copies_to_device() const noexcept { return copies_to_device_; }
    int copies_to_host() const noexcept { return copies_to_host_; }
    void reset_counters() noexcept;

private:
    void ensure_host_image();

    std::size_t size_ = 0;
    std::vector<ValueType> host_;  // empty until needed for a vector made on_device
    DeviceBuffer<ValueType> dev_;
    Valid valid_ = Valid::host;
    std::size_t bytes_to_device_ = 0;
    std::size_t bytes_to_host_ = 0;
    int copies_to_device_ = 0;
    int copies_to_host_ = 0;
};

}  // namespace spmv::gpu
