#pragma once
// Advice kept like studies (docs/advisor.md): each finished advice in its own folder under the
// user's data location (AppDataLocation/advice/<id>/), advice.json and advice.md as the advisor
// wrote them, so the Advise page lists past advice and reopens one without its runs (advice.json
// holds every figure its card and charts show). A folder whose advice.json cannot be read is
// listed as damaged, with the reason, never dropped and never a crash.

#include "advice.hpp"

#include <QDateTime>
#include <QList>
#include <QString>

#include <optional>

namespace ddplab::ui {

struct StoredAdvice {
    QString id;                    // the folder's name: "20261127-103235-8gpus"
    QString directory;
    QDateTime created;             // the folder's time, from its name
    std::optional<Advice> advice;  // nullopt: damaged
    QString problem;               // why it could not be read, in words
    // "8 GPUs: 32 per GPU, LR 0.4 (moderate)", or "damaged: <problem>".
    QString title() const;
};

class AdviceStore {
public:
    explicit AdviceStore(QString root = defaultRoot());
    static QString defaultRoot();
    const QString& root() const { return m_root; }

    // advice.json and advice.md into a new folder; its id, or "" with `error` set.
    QString save(const Advice& advice, QString* error) const;
    // A folder (or a folder's name under the root) read back; damaged ones say why.
    StoredAdvice open(const QString& idOrDirectory) const;
    // Newest first, damaged ones included.
    QList<StoredAdvice> list() const;

private:
    QString m_root;
};

}  // namespace ddplab::ui
