/// When each app's data was last forgotten: `ledger.json`'s `forgotten` member,
/// `{"waterline": "2026-11-21T22:00:00.000+01:00"}`. A device that recorded something offline
/// without having seen a forget keeps, of it, only what was recorded at or after that instant
/// (`Forgetting`).
package struct ForgottenApps: JSONRepresentable, Equatable {
    /// The instant of each app's last forget.
    package var instants: [AppID: Timestamp]

    package init(_ instants: [AppID: Timestamp] = [:]) { self.instants = instants }

    package subscript(app: AppID) -> Timestamp? {
        get { instants[app] }
        set { instants[app] = newValue }
    }

    package var isEmpty: Bool { instants.isEmpty }

    package static var expectation: String { "an object naming apps (waterline, brew, hydrate, moments) with the instant each was forgotten" }

    package static var jsonSchema: JSONObject {
        var properties = JSONObject()
        for app in Forgetting.apps { properties[app.rawValue] = .object(Timestamp.jsonSchema) }
        return ["type": "object", "properties": .object(properties), "additionalProperties": false]
    }

    package static func decode(_ json: JSONValue, at pointer: JSONPointer, issues: inout [DocumentIssue]) -> ForgottenApps? {
        guard case .object(let object) = json else {
            issues.append(mismatch(json, at: pointer))
            return nil
        }
        var out = ForgottenApps()
        var ok = true
        for member in object {
            let (key, value) = (member.key, member.value)
            guard let app = AppID(rawValue: key), Forgetting.apps.contains(app) else {
                issues.append(.error(pointer.appending(key), "is not an app a ledger can forget (one of \(Forgetting.apps.map(\.rawValue).joined(separator: ", ")))"))
                ok = false
                continue
            }
            if let t = Timestamp.decode(value, at: pointer.appending(key), issues: &issues) { out[app] = t } else { ok = false }
        }
        return ok ? out : nil
    }

    package var json: JSONValue {
        var o = JSONObject()
        for (app, t) in instants { o[app.rawValue] = t.json }
        return .object(o)
    }

    /// The forgets in force after a three-way merge: an app's forget made (or taken back) on one
    /// side only is that side's; made on both, the later one.
    package static func merged(base: ForgottenApps, ours: ForgottenApps, theirs: ForgottenApps) -> ForgottenApps {
        var out = ForgottenApps()
        for app in Forgetting.apps {
            let (b, o, t) = (base[app], ours[app], theirs[app])
            if o == t { out[app] = o } else if o == b { out[app] = t } else if t == b { out[app] = o } else { out[app] = max(o ?? t!, t ?? o!) }
        }
        return out
    }

    /// The forgets of `inForce` this side had not seen (none, or an earlier one), by app.
    package func unseen(in inForce: ForgottenApps) -> [AppID: Timestamp] {
        inForce.instants.filter { app, instant in (self[app] ?? Timestamp(epochMilliseconds: .min, utcOffsetSeconds: 0)) < instant }
    }

    /// The forgets recorded in a `ledger.json` (none when it is absent or cannot be read).
    package static func recorded(in manifest: [UInt8]?) -> ForgottenApps {
        guard let manifest, let json = try? JSONParser.parse(manifest), let member = json["forgotten"] else { return ForgottenApps() }
        var ignored: [DocumentIssue] = []
        return decode(member, at: .root, issues: &ignored) ?? ForgottenApps()
    }
}

/// Forgetting an app: every document of it deleted at once, as one change that travels like
/// any deletion, and the rule that decides what another device recorded offline meanwhile.
///
/// The rule (docs/deleting.md, "What another device recorded offline"): a forget is an instant, recorded in
/// `ledger.json`. When a merge brings together a side that has seen the forget and one that has
/// not, what the unaware side changed in that app since the two parted keeps only what was
/// recorded at or after the instant (`StoredDocument.remainder`): a drink logged later than
/// the forget survives, one logged earlier is gone. A photo stays when a surviving document
/// shows it; a file that cannot be dated (one of the user's own, an unreadable version) stays.
package enum Forgetting {
    /// The apps a ledger can forget (all but the ledger's own files).
    package static let apps: [AppID] = AppID.allCases.filter { $0 != .ledger }

    /// What of one file changed by a side unaware of a forget outlives it.
    package enum Remainder: Equatable {
        /// The file as it is.
        case whole
        /// Part of it: the bytes to keep instead.
        case part([UInt8])
        /// Nothing: as if the side had never changed it.
        case nothing
        /// A photo: kept when a surviving document shows it (`attachments(shownBy:)`).
        case ifShown
    }

    /// What of the file at `path` with `bytes`, changed by a device that had not seen a forget
    /// at `instant`, outlives it. Documents (and conflict files, read as their document's kind)
    /// keep what was recorded at or after the instant; a photo stays when a surviving document
    /// shows it (`attachments(shownBy:)`); anything else stays.
    package static func remainder(path: String, bytes: [UInt8], afterForgetAt instant: Timestamp,
                                  schema: DocumentSchema = LedgerSchema.standard) -> Remainder {
        let type: DocumentType
        switch PathRole(path: path, schema: schema) {
        case .document(let t): type = t
        case .conflictCopy(let original):
            guard let t = schema.documentType(forPath: original) else { return .whole }
            type = t
        case .attachment: return .ifShown
        case .other: return .whole
        }
        guard let json = try? JSONParser.parse(bytes) else { return .whole }
        guard let kept = type.remainder(of: json, afterForgetAt: instant) else { return .nothing }
        return kept == json ? .whole : .part(CanonicalJSON.encode(kept))
    }

    /// The attachment files (paths relative to the root, `moments/photos/<hash>.jpg`) that the
    /// given documents show.
    package static func attachments(shownBy documents: [(path: String, bytes: [UInt8])],
                                    schema: DocumentSchema = LedgerSchema.standard) -> Set<String> {
        var out: Set<String> = []
        for (path, bytes) in documents {
            guard let type = schema.documentType(forPath: path), let json = try? JSONParser.parse(bytes) else { continue }
            for r in type.inspect(json).references {
                if let a = schema.attachmentTypes.first(where: { $0.name == r.kind }) { out.insert(a.directory + "/" + r.id) }
            }
        }
        return out
    }
}
