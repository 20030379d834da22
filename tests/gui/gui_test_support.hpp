#pragma once
// Helpers of the GUI tests: a lazily created QApplication (catch_discover_tests runs the binary
// without a QPA platform at build time, so nothing Qt may happen at static init), and pixel
// access on a rendered widget.
#include <QApplication>
#include <QImage>
#include <QWidget>

#include <spmv/viz/colour.hpp>

namespace guitest {

inline QApplication& app()
{
    static int argc = 1;
    static char name[] = "test_gui";
    static char* argv[] = {name, nullptr};
    static QApplication* a = [] {
        if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
            qputenv("QT_QPA_PLATFORM", "offscreen");
        }
        return new QApplication(argc, argv);
    }();
    return *a;
}

/// The widget rendered offscreen at device pixel ratio 1.
inline QImage render(QWidget& w)
{
    QImage img(w.size(), QImage::Format_RGB32);
    img.fill(Qt::magenta);
    w.render(&img);
    return img;
}

inline spmv::viz::Rgb pixel(const QImage& img, QPointF at)
{
    const QRgb c = img.pixel(at.toPoint());
    return {static_cast<std::uint8_t>(qRed(c)), static_cast<std::uint8_t>(qGreen(c)),
            static_cast<std::uint8_t>(qBlue(c))};
}

}  // namespace guitest

namespace Catch {
template <>
struct StringMaker<spmv::viz::Rgb> {
    static std::string convert(const spmv::viz::Rgb& c)
    {
        return "rgb(" + std::to_string(c.r) + ", " + std::to_string(c.g) + ", " +
               std::to_string(c.b) + ")";
    }
};
}  // namespace Catch
