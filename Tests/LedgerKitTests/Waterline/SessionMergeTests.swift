import LedgerKit
import Testing

@Suite struct SessionMergeTests {
    let base = WaterlineFixture.session("DDW")  // entries e0, e1 (drinks), e2 (water)

    func edited(_ s: Session, at minute: Int, _ change: (inout Session) -> Void) -> Session {
        var copy = s
        change(&copy)
        copy.updatedAt = WaterlineFixture.at(minute)
        copy.recomputeDerived()
        return copy
    }

    func ids(_ s: Session) -> [String] { s.entries.map(\.id) }

    /// The merged document must not depend on which machine runs the merge.
    func merged(_ base: Session?, _ ours: Session, _ theirs: Session) -> Merged<Session> {
        let a = SessionMerge.merge(base: base, ours: ours, theirs: theirs)
        let b = SessionMerge.merge(base: base, ours: theirs, theirs: ours)
        #expect(a.document == b.document, "the merge is not symmetric")
        return a
    }

    @Test func entriesAddedOnBothSidesAreUnioned() {
        let ours = edited(base, at: 60) { $0.entries.append(WaterlineFixture.drink(40, id: "ours")) }
        let theirs = edited(base, at: 61) { $0.entries.append(WaterlineFixture.water(45, id: "theirs")) }
        let m = merged(base, ours, theirs).document
        #expect(ids(m) == ["e0", "e1", "e2", "ours", "theirs"])
        // Derived values are recomputed from the union.
        #expect(m.storedState == m.state.json)
        #expect(m.state.waterlineValue == 1)
        #expect(m.state.totalWaterCount == 2)
    }

    @Test func aDeletionAgainstNoChangeStaysDeleted() {
        let ours = edited(base, at: 60) { $0.entries.removeAll { $0.id == "e1" } }
        let theirs = edited(base, at: 61) { $0.entries.append(WaterlineFixture.water(45, id: "theirs")) }
        let m = merged(base, ours, theirs).document
        #expect(ids(m) == ["e0", "e2", "theirs"])
        #expect(m.state.waterlineValue == -1)
    }

    @Test func anEditBeatsADeletion() {
        let ours = edited(base, at: 60) { $0.entries.removeAll { $0.id == "e1" } }
        let theirs = edited(base, at: 50) {
            $0.entries[1].alcoholMeta?.standardDrinkEstimate = 2
            $0.entries[1].updatedAt = WaterlineFixture.at(50)
        }
        let result = merged(base, ours, theirs)
        #expect(ids(result.document) == ["e0", "e1", "e2"])
        #expect(result.document.entries[1].alcoholMeta?.standardDrinkEstimate == 2)
        #expect(result.document.state.waterlineValue == 2)
        #expect(result.notes.contains { $0.contains("deleted on one machine and edited on the other") })
    }

    @Test func editsOnBothSidesGoToTheLaterUpdatedAt() {
        let ours = edited(base, at: 60) {
            $0.entries[0].alcoholMeta?.standardDrinkEstimate = 1.5
            $0.entries[0].updatedAt = WaterlineFixture.at(59)
        }
        let theirs = edited(base, at: 58) {
            $0.entries[0].alcoholMeta?.standardDrinkEstimate = 2
            $0.entries[0].updatedAt = WaterlineFixture.at(58)
        }
        let m = merged(base, ours, theirs).document
        #expect(m.entries[0].alcoholMeta?.standardDrinkEstimate == 1.5)
        #expect(m.state.waterlineValue == 1.5)
        #expect(m.updatedAt == WaterlineFixture.at(60))
    }

    @Test func equalUpdatedAtIsBrokenTheSameWayOnBothMachines() {
        let ours = edited(base, at: 60) {
            $0.entries[0].alcoholMeta?.standardDrinkEstimate = 1.5
            $0.entries[0].updatedAt = WaterlineFixture.at(59)
        }
        let theirs = edited(base, at: 60) {
            $0.entries[0].alcoholMeta?.standardDrinkEstimate = 2
            $0.entries[0].updatedAt = WaterlineFixture.at(59)
        }
        // `merged` checks that both orders give the same document.
        let m = merged(base, ours, theirs).document
        #expect([1.5, 2].contains(m.entries[0].alcoholMeta?.standardDrinkEstimate))
    }

    @Test func anEntryLoggedAfterTheOtherMachineEndedTheSessionMovesTheEnd() {
        let ours = edited(base, at: 60) {
            $0.endTime = WaterlineFixture.at(30)
            $0.isActive = false
        }
        let theirs = edited(base, at: 61) { $0.entries.append(WaterlineFixture.water(50, id: "late")) }
        let result = merged(base, ours, theirs)
        let m = result.document
        #expect(!m.isActive)
        #expect(m.endTime == WaterlineFixture.at(50))
        #expect(ids(m).last == "late")
        #expect(m.validate().isEmpty)
        #expect(m.storedSummary["totalWaterCount"] == .number(2))
    }

    @Test func sessionFieldsMergeFieldByField() {
        let ours = edited(base, at: 60) { $0.warningThreshold = 3 }
        let theirs = edited(base, at: 61) { $0.waterEveryNDrinks = 2 }
        let m = merged(base, ours, theirs).document
        #expect(m.warningThreshold == 3 && m.waterEveryNDrinks == 2)
        #expect(m.state.isWarning == false)
    }

    @Test func twoIndependentVersionsOfTheSameSessionUnionTheirEntries() {
        let ours = edited(base, at: 60) { $0.entries = [WaterlineFixture.drink(10, id: "a")] }
        let theirs = edited(base, at: 61) { $0.entries = [WaterlineFixture.water(20, id: "b")] }
        #expect(ids(merged(nil, ours, theirs).document) == ["a", "b"])
    }

    @Test func throughTheDocumentTypeDeletionsFollowTheSharedRules() throws {
        let type = DocumentType(Session.self)
        let b = base.json
        let changed = edited(base, at: 60) { $0.entries.append(WaterlineFixture.water(45, id: "x")) }.json
        // Deleted here, unchanged there: stays deleted.
        #expect(try #require(type.merge(base: b, ours: nil, theirs: b)).result == nil)
        // Deleted here, edited there: the edit stays.
        #expect(try #require(type.merge(base: b, ours: nil, theirs: changed)).result == changed)
        // Both edited: the session rule, recomputed.
        let ours = edited(base, at: 62) { $0.entries.append(WaterlineFixture.drink(50, id: "y")) }.json
        let m = try #require(type.merge(base: b, ours: ours, theirs: changed)?.result)
        #expect(m["entries"]?.arrayValue?.count == 5)
        #expect(m["state"]?["waterlineValue"] == .number(1))
    }
}

@Suite struct ActiveSessionResolutionTests {
    func active(_ id: String, startMinute: Int, entries: [LogEntry]) -> Session {
        var s = Session(id: id, start: WaterlineFixture.at(startMinute), rules: WaterlineRules())
        s.entries = entries
        s.updatedAt = WaterlineFixture.at(startMinute + 100)
        s.recomputeDerived()
        return s
    }

    @Test func twoSessionsOfTheSameNightBecomeOneWithEveryEntry() {
        let phone = active("phone", startMinute: 0, entries: [WaterlineFixture.drink(10, id: "p1"), WaterlineFixture.drink(30, id: "p2")])
        let laptop = active("laptop", startMinute: 20, entries: [WaterlineFixture.water(25, id: "l1"), WaterlineFixture.drink(40, id: "l2")])
        let r = SessionMerge.reconcile([laptop, phone])
        #expect(r == SessionMerge.reconcile([phone, laptop]), "depends on the order")
        #expect(r.removed == ["laptop"])
        #expect(r.updated.count == 1)
        let kept = r.updated[0]
        #expect(kept.id == "phone" && kept.isActive && kept.startTime == WaterlineFixture.at(0))
        #expect(kept.entries.map(\.id) == ["p1", "l1", "p2", "l2"])
        #expect(kept.state.waterlineValue == 2)
        #expect(kept.storedState == kept.state.json)
        #expect(kept.updatedAt == WaterlineFixture.at(120))
        #expect(r.notes == ["sessions phone and laptop were both active (started on two devices); merged laptop's 2 entries into phone"])
        // One entry is one entry.
        let single = active("laptop", startMinute: 20, entries: [WaterlineFixture.water(25, id: "l1")])
        #expect(SessionMerge.reconcile([phone, single]).notes.first?.hasSuffix("merged laptop's 1 entry into phone") == true)
    }

    @Test func aForgottenSessionFromAnEarlierNightIsEndedAtItsLastLog() {
        let friday = active("friday", startMinute: 0, entries: [WaterlineFixture.drink(10, id: "f1"), WaterlineFixture.water(90, id: "f2")])
        let saturday = active("saturday", startMinute: 24 * 60, entries: [WaterlineFixture.drink(24 * 60 + 5, id: "s1")])
        let r = SessionMerge.reconcile([saturday, friday])
        #expect(r.removed.isEmpty)
        let byID = Dictionary(uniqueKeysWithValues: r.updated.map { ($0.id, $0) })
        #expect(byID["saturday"]?.isActive == true)
        #expect(byID["saturday"]?.entries.count == 1)
        #expect(byID["friday"]?.isActive == false)
        #expect(byID["friday"]?.endTime == WaterlineFixture.at(90))
        #expect(byID["friday"]?.validate().isEmpty == true)
        #expect(byID["friday"]?.storedSummary["totalAlcoholCount"] == .number(1))
    }

    @Test func threeSessionsLeaveExactlyOneActive() {
        let a = active("a", startMinute: 0, entries: [WaterlineFixture.drink(5, id: "a1")])
        let b = active("b", startMinute: 30, entries: [WaterlineFixture.drink(35, id: "b1")])
        let c = active("c", startMinute: 3 * 24 * 60, entries: [])
        let r = SessionMerge.reconcile([c, b, a])
        #expect(r.updated.filter(\.isActive).map(\.id) == ["c"])
        #expect(r.removed == ["b"])
        #expect(r.updated.first { $0.id == "a" }?.entries.map(\.id) == ["a1", "b1"])
        #expect(r.updated.first { $0.id == "a" }?.endTime == WaterlineFixture.at(35))
        // Nothing to do with one active session.
        #expect(SessionMerge.reconcile([c]).updated.isEmpty)
    }
}

@Suite struct WaterlineSettingsMergeTests {
    @Test func settingsAndPresetsMergeFieldByField() throws {
        let type = DocumentType(WaterlineSettings.self)
        let base = WaterlineSettings(createdAt: WaterlineFixture.start)
        var ours = base, theirs = base
        ours.waterEveryNDrinks = 2
        ours.updatedAt = WaterlineFixture.at(10)
        theirs.warningThreshold = 3
        theirs.units = .ml
        theirs.updatedAt = WaterlineFixture.at(20)
        let m = try #require(type.merge(base: base.json, ours: ours.json, theirs: theirs.json)?.result)
        #expect(m["waterEveryNDrinks"] == .number(2) && m["warningThreshold"] == .number(3) && m["units"] == .string("ml"))
        // The same field changed on both sides: the later change wins.
        var both = base
        both.waterEveryNDrinks = 3
        both.updatedAt = WaterlineFixture.at(30)
        let later = try #require(type.merge(base: base.json, ours: ours.json, theirs: both.json)?.result)
        #expect(later["waterEveryNDrinks"] == .number(3))

        let presets = DocumentType(DrinkPreset.self)
        let beer = DrinkPreset.defaults(createdAt: WaterlineFixture.start)[0]
        var renamed = beer, resized = beer
        renamed.name = "Lager"
        renamed.updatedAt = WaterlineFixture.at(5)
        resized.sizeOz = 16
        resized.standardDrinkEstimate = 1.3
        resized.updatedAt = WaterlineFixture.at(6)
        let p = try #require(presets.merge(base: beer.json, ours: renamed.json, theirs: resized.json)?.result)
        #expect(p["name"] == .string("Lager") && p["sizeOz"] == .number(16) && p["standardDrinkEstimate"] == .number(1.3))
    }
}

/// Sessions two devices let overlap (one ended a night while the other started one, or kept
/// logging into it) become one when a sync brings them together.
@Suite struct OverlappingSessionMergeTests {
    func session(_ id: String, start: Int, end: Int?, entries: [LogEntry]) -> Session {
        var s = Session(id: id, start: WaterlineFixture.at(start), rules: WaterlineRules())
        s.entries = entries
        if let end {
            s.endTime = WaterlineFixture.at(end)
            s.isActive = false
        }
        s.updatedAt = WaterlineFixture.at(end ?? start)
        return s.recomputed
    }

    @Test func overlappingEndedSessionsBecomeOne() {
        let laptop = session("laptop", start: 0, end: 120, entries: [WaterlineFixture.drink(10, id: "l1")])
        let phone = session("phone", start: 60, end: 180, entries: [WaterlineFixture.water(90, id: "p1")])
        let later = session("later", start: 180, end: 200, entries: [])
        let r = SessionMerge.reconcile([phone, later, laptop])
        #expect(r == SessionMerge.reconcile([laptop, phone, later]), "depends on the order")
        #expect(r.removed == ["phone"])
        let kept = r.updated.first { $0.id == "laptop" }
        #expect(kept?.entries.map(\.id) == ["l1", "p1"])
        #expect(kept?.endTime == WaterlineFixture.at(180) && kept?.isActive == false)
        #expect(r.updated.allSatisfy { $0.id != "later" || $0 == later })
        #expect(r.notes.first?.contains("overlapped") == true)
        // Nothing to do when nothing overlaps.
        #expect(SessionMerge.reconcile([laptop, later]).updated.isEmpty)
    }

    @Test func anActiveSessionStartedInsideAnEndedOneTakesItsEntries() {
        let ended = session("ended", start: 0, end: 120, entries: [WaterlineFixture.drink(10, id: "e1")])
        let running = session("running", start: 60, end: nil, entries: [WaterlineFixture.drink(70, id: "r1")])
        let r = SessionMerge.reconcile([running, ended])
        #expect(r.removed == ["running"])
        #expect(r.updated.map(\.id) == ["ended"])
        #expect(r.updated.first?.isActive == true && r.updated.first?.endTime == nil)
        #expect(r.updated.first?.entries.map(\.id) == ["e1", "r1"])
    }
}
