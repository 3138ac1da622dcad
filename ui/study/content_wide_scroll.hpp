// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A column that scrolls up and down and is never narrower than what it holds: a splitter or a
// layout asks it for at least its content's minimum width, asked again whenever the content's
// layout changes. The Advise page's inputs column had its least width fixed once, when it was
// built: its buttons' text then grew ("Start (about 42 s)", "Resume (about 3 min)") and at
// 1920 x 1080 beside the Lesson pane the column cut its fields and buttons at its right edge.
// The Study page's builder had the same cut at a fixed least of 260 px: its study chooser lost its
// arrow, and its description wrapped at a width wider than what showed, each line cut mid-word
// (1280 x 720, and in presentation mode).

#include <QScrollArea>

namespace ddplab::ui {

class ContentWideScroll : public QScrollArea {
public:
    explicit ContentWideScroll(QWidget* content, QWidget* parent = nullptr);

    QSize minimumSizeHint() const override;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
};

}  // namespace ddplab::ui
