// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A study file (docs/studies.md) read and checked field by field: every problem names the file
// and the field, and nothing is guessed. A built-in preset named by the file is its base.

#include "client/study/study_spec.hpp"

#include <QJsonObject>
#include <QString>

#include <optional>

namespace ddplab::ui {

struct StudyReadResult {
    std::optional<StudySpec> spec;
    QString error;  // names the file and the field; empty when it was read
};

// `origin` names where it came from in messages; `folder` is where an explanation file and a
// lesson's presets are looked up.
StudyReadResult parseStudy(const QJsonObject& object, const QString& origin, const QString& folder);
StudyReadResult readStudyFile(const QString& path);

}  // namespace ddplab::ui
