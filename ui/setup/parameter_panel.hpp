// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Every engine config key as a field, grouped, built from ddplab_core's configKeys(). Each edit
// is checked at once with the engine's own rules (assignFromText for the field's value,
// findProblems for combinations, the rank limit of this machine), and a problem is shown at
// the field it belongs to, so Run is never pressed on something the engine would refuse.
// The panel holds the settings and says what changed; its pieces do the rest: the form
// (setup/setting_form.hpp, rows of setup/setting_field.hpp), the check
// (client/runs/settings_check.hpp) and the marks (setup/problem_marks.hpp).

#include "client/engine/device_inventory.hpp"
#include "core/config.hpp"
#include "setup/setting_field.hpp"

#include <QHash>
#include <QJsonObject>
#include <QWidget>

QT_BEGIN_NAMESPACE
class QLabel;
class QScrollArea;
QT_END_NAMESPACE

namespace ddplab::ui {

class ParameterPanel : public QWidget {
    Q_OBJECT

public:
    explicit ParameterPanel(QWidget* parent = nullptr);
    ~ParameterPanel() override;

    // Starts from the engine's defaults and applies `preset`; returns the keys it did not know.
    QStringList setValues(const QJsonObject& preset);
    // The settings as a preset (every key but `events`). Meaningful when isValid().
    QJsonObject values() const;
    const ddplab::Config& config() const { return m_config; }

    bool isValid() const { return m_problems.isEmpty(); }
    // Key -> the sentence shown at its field.
    const QHash<QString, QString>& problems() const { return m_problems; }
    // The same sentences in the panel's words ("GPUs (ranks) must be ..."), in the order of the fields.
    QStringList problemSentences() const;

    void setDeviceInventory(const DeviceInventory& inventory);
    // The engine refused a run because of `key` (e.g. something only the machine can tell).
    void showEngineProblem(const QString& key, const QString& message);
    // What `ddplab-engine inspect` refused in your own model or data, at the field `key` names
    // (elsewhere: in the summary); an empty message clears it. Replaced by each inspection.
    void setInspectionProblem(const QString& key, const QString& message);

    // A file chosen for a path field (model_file, train_data, val_data), as its Browse button
    // does after the dialog (setup/path_field.hpp: a .npy folder through its inputs.npy; the
    // folder remembered for the next dialog).
    void choosePath(const QString& key, const QString& path);

    // Field access by key, for the window's shortcuts and for tests.
    QString fieldText(const QString& key) const;
    void setFieldText(const QString& key, const QString& text);
    bool isFieldShown(const QString& key) const;
    QWidget* editor(const QString& key) const;

signals:
    void changed();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void validate();
    void showProblems();
    void updateRelevance();
    void updatePlaceholders();

    SettingFields m_fields;  // in configKeys() order
    QHash<QString, SettingField*> m_fieldByKey;
    QLabel* m_deviceNote = nullptr;
    QLabel* m_summary = nullptr;
    QScrollArea* m_scroll = nullptr;
    DeviceInventory m_inventory;
    ddplab::Config m_config;
    QHash<QString, QString> m_problems;
    QHash<QString, QString> m_engineProblems;
    QPair<QString, QString> m_inspectionProblem;  // key, message
    bool m_loading = false;
};

}  // namespace ddplab::ui
