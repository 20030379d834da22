// DeviceVector: host logic only; the copies go through DeviceBuffer (memory.cu or stubs.cpp).
#include <algorithm>

#include <spmv/error.hpp>
#include <spmv/gpu/device_vector.hpp>

namespace spmv::gpu {

template <typename V>
DeviceVector<V>::DeviceVector(std::size_t n) : size_(n), host_(n, V{0}), dev_(n, "vector")
{}

template <typename V>
DeviceVector<V>::DeviceVector(std::span<const V> host)
    : size_(host.size()), host_(host.begin(), host.end()), dev_(host.size(), "vector")
{}

template <typename V>
DeviceVector<V> DeviceVector<V>::on_device(std::size_t n)
{
    DeviceVector v;
    v.size_ = n;
    v.dev_ = DeviceBuffer<V>(n, "vector");
    v.valid_ = Valid::device;
    return v;
}

template <typename V>
DeviceVector<V> DeviceVector<V>::uploaded(std::span<const V> host)
{
    DeviceVector v = on_device(host.size());
    v.dev_.upload(host);
    v.bytes_to_device_ += host.size_bytes();
    ++v.copies_to_device_;
    return v;
}

template <typename V>
void DeviceVector<V>::copy_to(std::span<V> out)
{
    SPMV_EXPECTS(out.size() == size_, "DeviceVector::copy_to: sizes differ");
    if (valid_ == Valid::device) {
        dev_.download(out);
        bytes_to_host_ += out.size_bytes();
        ++copies_to_host_;
    } else {
        std::copy(host_.begin(), host_.end(), out.begin());
    }
}

template <typename V>
void DeviceVector<V>::ensure_host_image()
{
    if (host_.size() != size_) {
        host_.resize(size_);
    }
}

template <typename V>
void DeviceVector<V>::sync_to_host()
{
    if (valid_ == Valid::device) {
        ensure_host_image();
        dev_.download(host_);
        bytes_to_host_ += host_.size() * sizeof(V);
        ++copies_to_host_;
        valid_ = Valid::both;
    }
}

template <typename V>
void DeviceVector<V>::sync_to_device()
{
    if (valid_ == Valid::host) {
        dev_.upload(host_);
        bytes_to_device_ += host_.size() * sizeof(V);
        ++copies_to_device_;
        valid_ = Valid::both;
    }
}

template <typename V>
void DeviceVector<V>::sync()
{
    sync_to_host();
    sync_to_device();
}

template <typename V>
std::span<const V> DeviceVector<V>::read_host()
{
    sync_to_host();
    return host_;
}

template <typename V>
std::span<V> DeviceVector<V>::host()
{
    sync_to_host();
    valid_ = Valid::host;
    return host_;
}

template <typename V>
std::span<V> DeviceVector<V>::host_for_overwrite()
{
    ensure_host_image();
    valid_ = Valid::host;
    return host_;
}

template <typename V>
const V* DeviceVector<V>::read_device()
{
    sync_to_device();
    return dev_.data();
}

template <typename V>
V* DeviceVector<V>::device()
{
    sync_to_device();
    valid_ = Valid::device;
    return dev_.data();
}

template <typename V>
V* DeviceVector<V>::device_for_overwrite() noexcept
{
    valid_ = Valid::device;
    return dev_.data();
}

template <typename V>
void DeviceVector<V>::reset_counters() noexcept
{
    bytes_to_device_ = bytes_to_host_ = 0;
    copies_to_device_ = copies_to_host_ = 0;
}

template class DeviceVector<float>;
template class DeviceVector<double>;

}  // namespace spmv::gpu
