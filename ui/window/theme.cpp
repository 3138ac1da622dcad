// SPDX-License-Identifier: GPL-3.0-or-later
#include "theme.hpp"

#include "theme/dark_palette.hpp"

#include <QApplication>
#include <QPalette>
#include <QStyle>
#include <QStyleFactory>

namespace ddplab::ui {
namespace {

struct SystemLook {
    QString styleName;
    QPalette palette;
};

// The desktop's style and palette as they were before the lab changed anything.
const SystemLook& systemLook()
{
    static const SystemLook look{QApplication::style()->name(), QApplication::palette()};
    return look;
}

}  // namespace

void applyTheme(ThemeChoice choice)
{
    const SystemLook& system = systemLook();
    switch (choice) {
    case ThemeChoice::System:
        QApplication::setStyle(QStyleFactory::create(system.styleName));
        QApplication::setPalette(system.palette);
        break;
    case ThemeChoice::Light:
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        QApplication::setPalette(QApplication::style()->standardPalette());
        break;
    case ThemeChoice::Dark:
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        QApplication::setPalette(darkPalette());
        break;
    }
}

QString themeName(ThemeChoice choice)
{
    switch (choice) {
    case ThemeChoice::Light: return QStringLiteral("light");
    case ThemeChoice::Dark: return QStringLiteral("dark");
    case ThemeChoice::System: break;
    }
    return QStringLiteral("system");
}

ThemeChoice themeFromName(const QString& name)
{
    if (name == QLatin1String("light"))
        return ThemeChoice::Light;
    if (name == QLatin1String("dark"))
        return ThemeChoice::Dark;
    return ThemeChoice::System;
}

}  // namespace ddplab::ui
