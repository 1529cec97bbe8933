"""The words of the printable score sheet, in English and Italian (API.md ``sheet.pdf``
``?lang=it|en``).

One catalogue: every label the sheet prints has a key, and every key has both languages with
the same ``{placeholders}`` (a test checks it). The Italian uses the table's own words, as
the Italian rule texts do: *mano* (hand), *mazziere* (dealer), *scarto* (discard), *prese*
(tricks), *punti di mazzo* (deck points), *buone* (melds) — *frilli*, *trionfi*, *gatti*,
*famiglia*, *quaterno* (four of a kind), *terno* (three of a kind) —, *Bagatto ultimo*;
Ottocento's *cricche*, *sequenze* and *raddoppio*; Mitigatti's *marca*, *partida*, *accuse*
(accusassions), *a monte* (a deal thrown in) and the *piatto* (the pot of R15).

Numbers, money and dates are written the way each language writes them (``0,50 €`` is not
attempted: the sheet names no currency, only ``0,50``).
"""

from __future__ import annotations

import string
from collections.abc import Mapping, Sequence
from datetime import datetime
from decimal import Decimal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

LANGUAGES = ("en", "it")
DEFAULT_LANGUAGE = "en"

#: key -> (English, Italian)
CATALOGUE: dict[str, tuple[str, str]] = {
    # -- the header -------------------------------------------------------------------------
    "title": ("Score sheet", "Foglio segnapunti"),
    "meta.game": ("Game", "Partita"),
    "meta.variant": ("Variant", "Variante"),
    "meta.options": ("Options", "Opzioni"),
    "meta.started": ("Started", "Iniziata"),
    "meta.as_of": ("As of", "Aggiornato al"),
    "meta.players": ("Players, in order of play", "Giocatori, in ordine di gioco"),
    "meta.sides": ("Sides", "Squadre"),
    "meta.first_dealer": ("First dealer", "Primo mazziere"),
    "meta.status": ("Status", "Stato"),
    "meta.rules": ("Rules", "Regole"),
    "meta.target": ("Target", "Obiettivo"),
    "meta.no_options": ("none", "nessuna"),
    "status.in_progress": ("in progress", "in corso"),
    "status.in_progress_next": ("in progress; next dealer {name}",
                                "in corso; prossimo mazziere {name}"),
    "status.finished": ("finished", "finita"),
    "seat": ("seat {n}", "posto {n}"),
    "seat.cap": ("Seat {n}", "Posto {n}"),
    "seats.two": ("seats {a} and {b}", "posti {a} e {b}"),
    "seats.many": ("seats {list} and {last}", "posti {list} e {last}"),
    "seats.cap.two": ("Seats {a} and {b}", "Posti {a} e {b}"),
    "seats.cap.many": ("Seats {list} and {last}", "Posti {list} e {last}"),
    "side.by_hand": ("formed for each hand by {how}", "formate a ogni mano {how}"),
    "side.by_call": ("the dealer's call", "dalla chiamata del mazziere"),
    "side.by_contract": ("the contract", "dal contratto"),
    "side.none": ("each for themselves", "ciascuno per sé"),
    "side.against": ("{a} against {b}", "{a} contro {b}"),
    "dummy": ("{name}'s dummy", "morto di {name}"),
    "rules.version": ("rules {version}", "regole {version}"),
    "target.points": ("{n} points", "{n} punti"),
    # -- variants and options ---------------------------------------------------------------
    "variant.gatti-3": ("Gatti, three players", "Gatti a tre"),
    "variant.gatti-4": ("Gatti, four players in pairs", "Gatti a quattro in coppia"),
    "variant.gatti-2": ("Gatti, two players with dummies", "Gatti a due con due morti"),
    "variant.gatti-4-call": ("Gatti, four players, partner by call",
                             "Gatti a quattro con chiamata"),
    "variant.gatti-classic-4": ("Gatti, older rules, four players in pairs",
                                "Gatti, regole antiche, a quattro in coppia"),
    "variant.gatti-classic-3": ("Gatti, older rules, three players",
                                "Gatti, regole antiche, a tre"),
    "variant.gatti-classic-2": ("Gatti, older rules, two players with dummies",
                                "Gatti, regole antiche, a due con due morti"),
    "variant.ottocento": ("Ottocento (Tarocchino Bolognese)",
                          "Ottocento (Tarocchino bolognese)"),
    "variant.mitigatti-4": ("Mitigatti (Nice), four players", "Mitigatti (Nizza) a quattro"),
    "variant.mitigatti-3": ("Mitigatti (Nice), three players", "Mitigatti (Nizza) a tre"),
    "option.melds.hand": ("melds declared from the hand", "buone dichiarate dalla mano"),
    "option.melds.none": ("no melds", "senza buone"),
    "option.melds.captured": ("melds from the captured cards",
                              "buone dalle carte prese"),
    "option.melds.both": ("melds from the hand and from the captured cards",
                          "buone dalla mano e dalle carte prese"),
    "option.bagatto_ultimo.true": ("Bagatto ultimo", "Bagatto ultimo"),
    "option.bagatto_ultimo.false": ("no Bagatto ultimo", "senza Bagatto ultimo"),
    "option.marca_value": ("{value} a marca", "{value} a marca"),
    "option.marca_value.none": ("no money value per marca", "marca senza valore in denaro"),
    "option.other": ("{name}: {value}", "{name}: {value}"),
    "option.confirmation.none": ("hands not confirmed by the players",
                                 "mani senza conferma dei giocatori"),
    "option.confirmation.optional": ("players may confirm or dispute each hand",
                                     "i giocatori possono confermare o contestare ogni mano"),
    "option.confirmation.required": ("a hand is final once every player confirms it",
                                     "una mano è definitiva quando la confermano tutti"),
    # -- the table --------------------------------------------------------------------------
    "col.hand": ("Hand", "Mano"),
    "col.pot": ("Pot", "Piatto"),
    "hand.dealer": ("dealer {name}", "mazziere {name}"),
    "row.melds": ("melds", "buone"),
    "row.captured_melds": ("captured melds", "buone in presa"),
    "row.bagatto": ("Bagatto ultimo", "Bagatto ultimo"),
    "row.deck_points": ("deck points", "punti di mazzo"),
    "row.deck_points.gatti-classic": ("trick points", "punti di mazzo"),
    "row.declared": ("declared", "dichiarate"),
    "row.captured": ("captured", "in presa"),
    "row.card_points": ("card points", "punti carte"),
    "row.points": ("points", "punti"),
    "row.hand": ("for the hand", "nella mano"),
    "row.total": ("total", "totale"),
    "row.to_target": ("to {target}", "a {target}"),
    "row.partida": ("partida", "partida"),
    "row.declaration": ("declarations", "accuse"),
    "row.bagatte_ultimu": ("Bagatte ultimu", "Bagatte ultimu"),
    "row.surrender": ("surrender", "resa"),
    "row.pot": ("pot", "piatto"),
    "row.marca": ("marca", "marche"),
    "row.balance": ("balance", "saldo"),
    "row.other": ("{item}", "{item}"),
    "row.final": ("Total", "Totale"),
    "note.thrown_in": (("Thrown in (to the mountain): nothing is scored and the deal does "
                       "not move"), "A monte: non si segna nulla e il mazziere non cambia"),
    "note.not_counted": ("† not counted: the rubber was won during the declarations (R13)",
                         ("† non contato: la partita è stata vinta durante le dichiarazioni "
                         "(R13)")),
    "note.confirmed": ("✓ confirmed by every player", "✓ confermata da tutti i giocatori"),
    "note.waiting": ("○ not confirmed yet by {names}", "○ non ancora confermata da {names}"),
    "note.disputed": ("! disputed by {name}: “{reason}”", "! contestata da {name}: «{reason}»"),
    "note.violations.one": ("1 illegal play was reported", ("È stata segnalata 1 giocata "
                                                            "irregolare")),
    "note.violations.other": ("{n} illegal plays were reported",
                              "Sono state segnalate {n} giocate irregolari"),
    "note.trick_record": ("recorded trick by trick", "registrata presa per presa"),
    # -- the heading of a hand: calls and contracts -----------------------------------------
    "call.partner": ("{dealer} called {card}: partner {partner}",
                     "{dealer} ha chiamato {card}: compagno {partner}"),
    "call.alone": ("{dealer} called {card}, a card of their own: alone against three",
                   "{dealer} ha chiamato {card}, carta sua: da solo contro tre"),
    "call.hidden": ("{dealer} called {card}", "{dealer} ha chiamato {card}"),
    "contract.call": ("{declarer} called {card}: partner {partner}",
                      "{declarer} ha chiamato {card}: compagno {partner}"),
    "contract.call.hidden": ("{declarer} called {card}", "{declarer} ha chiamato {card}"),
    "contract.solo": ("{declarer} played solo", "{declarer} ha giocato solo"),
    "contract.solo.call": ("{declarer} played solo, calling {card} from {partner}",
                           "{declarer} ha giocato solo chiamando {card} a {partner}"),
    "contract.solo.call.hidden": ("{declarer} played solo, calling {card}",
                                  "{declarer} ha giocato solo chiamando {card}"),
    "contract.sans_prendre": ("{declarer} played solo sans prendre",
                              "{declarer} ha giocato solo sans prendre (senza chiamare)"),
    "contract.surrender": ("{declarer} called a card of their own and surrendered",
                           "{declarer} ha chiamato una carta sua e si è arreso"),
    # -- events -----------------------------------------------------------------------------
    "event.dealer_alone": ("the dealer played alone against three",
                           "il mazziere ha giocato da solo contro tre"),
    "event.discard_uncovered": (("the dealer's side took no trick: the discard went to the "
                                "opponents"), ("la squadra del mazziere non ha fatto prese: "
                                              "lo scarto è andato agli avversari")),
    "event.fool_handed_over": ("the Fool went to the winner of its trick",
                               "il Matto è andato al vincitore della sua presa"),
    "event.declarations_only": ("the hand stopped after the declarations",
                                "la mano si è fermata alle dichiarazioni"),
    "event.surrendered": ("the declarer surrendered", "il dichiarante si è arreso"),
    "event.bagatte_attempt_invalid": ("the Bagatte ultimu attempt was not valid: no payment",
                                      ("tentativo di Bagatte ultimu non valido: nessun "
                                      "pagamento")),
    "event.thrown_in": ("thrown in (to the mountain)", "a monte"),
    "event.entered_by_points": ("entered by the points counted at the table, not by cards",
                                "segnata coi punti contati al tavolo, non carta per carta"),
    "event.other": ("{event}", "{event}"),
    # -- the end ----------------------------------------------------------------------------
    "end.winner": ("Winner: {names}", "Vince {names}"),
    "end.winner.pair": ("Winners: {names}", "Vincono {names}"),
    "end.winners": ("Winners, level: {names}", "Vincono a pari merito {names}"),
    "end.R10": ("The game ended after its {n} hands (R10).",
                "La partita è finita dopo le sue {n} mani (R10)."),
    "end.R12": ("The rubber was won at the end of hand {n}, at {target} or more (R12).",
                "La partita è stata vinta alla fine della mano {n}, a {target} o più (R12)."),
    "end.R13": ("The rubber was won during the declarations of hand {n} (R13).",
                "La partita è stata vinta durante le dichiarazioni della mano {n} (R13)."),
    "end.in_progress": ("In progress after {n} hands: {leader} leads.",
                        "In corso dopo {n} mani: conduce {leader}."),
    "end.in_progress.level": ("In progress after {n} hands: {leaders} are level.",
                              "In corso dopo {n} mani: pari {leaders}."),
    "end.in_progress.none": ("No hand has been played yet.", "Nessuna mano giocata."),
    "end.evening": ("Evening after {n} hands.", "Serata dopo {n} mani."),
    "and": ("and", "e"),
    # -- the marca ledger -------------------------------------------------------------------
    "ledger.title": ("Marca ledger", "Conto delle marche"),
    "ledger.start": ("start", "inizio"),
    "ledger.change": ("won or lost", "vinte o perse"),
    "ledger.balance": ("balance", "saldo"),
    "ledger.money": ("money", "denaro"),
    "ledger.pot_left": ("The pot holds {n} marca, for the next sole top scorer (R15).",
                        ("Nel piatto restano {n} marche, per il prossimo che farà più punti "
                        "da solo (R15).")),
    "ledger.collected": ("{name} collected {n} marca from the pot in hand {hand}.",
                         "{name} ha preso {n} marche dal piatto nella mano {hand}."),
    "ledger.transfers": ("To settle", "Per saldare"),
    "ledger.transfer": ("{payer} pays {payee} {n} marca", "{payer} paga {n} marche a {payee}"),
    "ledger.transfer.money": ("{payer} pays {payee} {n} marca ({money})",
                              "{payer} paga {n} marche a {payee} ({money})"),
    "ledger.settled": ("Everyone is even: nothing to pay.", "Tutti pari: niente da pagare."),
    "ledger.value": ("Value of a marca: {value}", "Valore di una marca: {value}"),
    "ledger.pot": ("the pot", "il piatto"),
    # -- the legend -------------------------------------------------------------------------
    "legend.title": ("Marks", "Segni"),
    "legend.F": ("frilli (pip cards shown)", "frilli (scartine mostrate)"),
    "legend.T": ("trumps shown", "trionfi mostrati"),
    "legend.G": ("gatti (the Fool, T1 and {third})", "gatti (Matto, trionfo 1 e {third})"),
    "legend.suits": ("family of the suit", "famiglia del seme"),
    "legend.ranks": ("three (5) or four (10) Jacks, Cavaliers, Queens, Kings",
                     "terno (5) o quaterno (10) di fanti, cavalli, regine, re"),
    "legend.B": ("Bagatto ultimo", "Bagatto ultimo"),
    "legend.shared": ("grey: scored by a partner, credited to the column",
                      "in grigio: segnato dal compagno, accreditato alla colonna"),
    "legend.captured": ("captured melds are scored from the pile at the end of the hand",
                        "le buone in presa si contano nelle prese a fine mano"),
    "legend.cricca": ("cricca: 3 or 4 of a kind (Tar = tarocchi)",
                      "cricca: 3 o 4 carte uguali (Tar = tarocchi)"),
    "legend.sequence": ("sequence and its length (T trumps, M Moors, A aces, a suit symbol)",
                        ("sequenza e sua lunghezza (T trionfi, M Mori, A assi, simbolo del "
                        "seme)")),
    "legend.doubling": ("three or more cricche or sequences count double",
                        "tre o più cricche o sequenze valgono doppio"),
    "legend.waiting": ("not yet confirmed by every player",
                       "non ancora confermata da tutti i giocatori"),
    "legend.waiting.required": ("not final: not yet confirmed by every player",
                                "non definitiva: non ancora confermata da tutti i giocatori"),
    "legend.disputed": ("disputed by a player, with the reason given",
                        "contestata da un giocatore, con il motivo dato"),
    "legend.confirmed": ("confirmed by every player", "confermata da tutti i giocatori"),
    "legend.by_points": ("points entered as counted at the table, not card by card",
                         "punti segnati come contati al tavolo, non carta per carta"),
    "legend.last_trick": ("card points include the last trick (6)",
                          "i punti carte comprendono l'ultima presa (6)"),
    "legend.not_counted": ("not counted: the rubber was won during the declarations (R13)",
                           ("non contato: la partita è stata vinta durante le dichiarazioni "
                           "(R13)")),
    "legend.marca": ("marca paid (−) and received (+) in the hand; balances start at 10",
                     "marche pagate (−) e ricevute (+) nella mano; i saldi partono da 10"),
    "legend.points_marca": ("points: each player's side's card points (72 or 78 a hand)",
                            "punti: punti carte della squadra di ciascuno (72 o 78 a mano)"),
    # -- the footer -------------------------------------------------------------------------
    "footer": ("Segnapunti · game {game} · {rules}", "Segnapunti · partita {game} · {rules}"),
    "footer.page": ("page {page} of {pages}", "pagina {page} di {pages}"),
    # -- an event's standings (issue 16) ----------------------------------------------------
    "ev.title": ("Standings", "Classifica"),
    "ev.provisional": ("Provisional: tables are still playing",
                       "Provvisoria: ci sono tavoli ancora in gioco"),
    "ev.final": ("After round {n}", "Dopo il turno {n}"),
    "ev.meta.event": ("Event", "Evento"),
    "ev.meta.variant": ("Game", "Gioco"),
    "ev.meta.format": ("Format", "Formula"),
    "ev.meta.scoring": ("Ranked by", "Classifica per"),
    "ev.meta.rounds": ("Rounds", "Turni"),
    "ev.meta.as_of": ("Printed", "Stampata"),
    "ev.format.individual": ("individual: partners change every round",
                             "individuale: si cambia compagno a ogni turno"),
    "ev.format.pairs.danish": ("fixed pairs, Danish pairing", "coppie fisse, abbinamento danese"),
    "ev.format.pairs.swiss": ("fixed pairs, Swiss pairing", "coppie fisse, abbinamento svizzero"),
    "ev.format.free": ("tables seated by the organiser", "tavoli decisi dall'organizzatore"),
    "ev.scoring.match_points": ("match points, then difference, then points",
                                "punti partita, poi differenza, poi punti"),
    "ev.scoring.difference": ("difference, then points", "differenza, poi punti"),
    "ev.rounds.of": ("{played} of {planned}", "{played} di {planned}"),
    "ev.col.place": ("Place", "Posto"),
    "ev.col.entrant": ("Entrant", "Iscritto"),
    "ev.col.match_points": ("MP", "PP"),
    "ev.col.difference": ("Diff.", "Diff."),
    "ev.col.points": ("Points", "Punti"),
    "ev.col.round": ("R{n}", "T{n}"),
    "ev.col.table": ("Table", "Tavolo"),
    "ev.col.seats": ("At the table", "Al tavolo"),
    "ev.col.totals": ("Totals", "Totali"),
    "ev.col.state": ("State", "Stato"),
    "ev.round": ("Round {n}", "Turno {n}"),
    "ev.round.closed": ("closed by the organiser", "chiuso dall'organizzatore"),
    "ev.byes": ("Sitting out: {names}", "Riposano: {names}"),
    "ev.state.playing": ("playing", "in gioco"),
    "ev.state.finished": ("finished", "finita"),
    "ev.state.closed": ("closed as it stood", "chiusa com'era"),
    "ev.legend": (("MP: match points (a win 2, a draw 1, a loss 0; at a table of three or "
                   "four on their own, by rank). Diff.: own total less the opponents' (less "
                   "the table's average where each plays alone). Points: the column's total."),
                  ("PP: punti partita (vittoria 2, pareggio 1, sconfitta 0; a un tavolo di "
                   "tre o quattro ciascuno per sé, secondo il posto). Diff.: il proprio "
                   "totale meno quello degli avversari (meno la media del tavolo dove "
                   "ciascuno gioca per sé). Punti: il totale della colonna.")),
    "ev.how": ("How each place was reached", "Come si è arrivati a ogni posto"),
    "ev.footer": ("Segnapunti · event {event}", "Segnapunti · evento {event}"),
    # -- explanation lines (?detail=1) ------------------------------------------------------
    "detail.title": ("How each point was scored", "Come si è segnato ogni punto"),
    "detail.meld": ("{who} declared {label}: {points}", "{who} ha dichiarato {label}: {points}"),
    "detail.meld.more": (("{who} declared {label}, worth {worth}: {points} more than the "
                         "{before} already scored for it"),
                         ("{who} ha dichiarato {label}, che vale {worth}: {points} in più dei "
                         "{before} già segnati")),
    "detail.captured_meld": ("{who} captured {label}: {points}",
                             "{who}: {label} nelle prese: {points}"),
    "detail.bagatto.won": ("{who} won the last trick with T1: {points}",
                           "{who} ha vinto l'ultima presa col Bagatto: {points}"),
    "detail.bagatto.lost": ("{who} lost the last trick with T1: {points} to {to}",
                            "{who} ha perso l'ultima presa col Bagatto: {points} a {to}"),
    "detail.bagatto.lost_own": ("{who} lost the last trick with T1: {points} to its own side",
                                ("{who} ha perso l'ultima presa col Bagatto: {points} alla "
                                "propria squadra")),
    "detail.deck_points": (("{who}: {tricks} tricks, {trick_points} trick points, + {counting} "
                           "in counting cards{cards}{rest}"),
                           ("{who}: {tricks} prese, {trick_points} punti di prese, + {counting} "
                           "in carte di conto{cards}{rest}")),
    "detail.rest": (" (the rest of the pack)", " (il resto del mazzo)"),
    "detail.points.deck": ("{who}: {counted} deck points{how}",
                           "{who}: {counted} punti di mazzo{how}"),
    "detail.points.card": ("{who}: {counted} card points{how}{last}",
                           "{who}: {counted} punti carte{how}{last}"),
    "detail.points.counted": (", as counted at the table", ", come contati al tavolo"),
    "detail.points.rest": (", the rest of the hand's total", ", il resto del totale della mano"),
    "detail.points.last": (", and {n} for the last trick: {points}",
                           ", e {n} per l'ultima presa: {points}"),
    "detail.combo.declared": ("{who} declared a {label}: {points}",
                              "{who} ha dichiarato una {label}: {points}"),
    "detail.combo.captured": ("{who} captured a {label}: {points}",
                              "{who}: una {label} nelle prese: {points}"),
    "detail.doubling": (("{who}: {n} {what}, so their {points} points count double: {points} "
                        "more"), ("{who}: {n} {what}, i loro {points} punti valgono doppio: "
                                "{points} in più")),
    "detail.card_points": (("{who}: {cards} cards worth {values}, less {pairs} for the "
                           "pairs{last}: {points}{rest}"),
                           ("{who}: {cards} carte che valgono {values}, meno {pairs} per le "
                           "coppie{last}: {points}{rest}")),
    "detail.last_trick": (", and {n} for the last trick", ", e {n} per l'ultima presa"),
    "detail.partida4": (("Partida: the declarer's side ({side}) took {points} of {total} "
                        "points, {outcome}: {each} marca a player{reasons}"),
                        ("Partida: la squadra del dichiarante ({side}) ha fatto {points} punti "
                        "su {total}, {outcome}: {each} marche a giocatore{reasons}")),
    "detail.partida4.won": ("winning", "e vince"),
    "detail.partida4.lost": ("losing", "e perde"),
    "detail.partida4.under": ("a side under {n} doubles", "una squadra sotto {n} raddoppia"),
    "detail.partida4.sans": ("sans prendre doubles (R17)", "sans prendre raddoppia (R17)"),
    "detail.partida3": ("Partida: {who} took {points} points, {band}: {n} marca to {to}",
                        "Partida: {who} ha fatto {points} punti, {band}: {n} marche a {to}"),
    "detail.partida3.low": ("under {n}", "meno di {n}"),
    "detail.partida3.mid": ("{low} to {high}", "da {low} a {high}"),
    "detail.partida3.tops": ("the top scorers, shared", "chi ha fatto più punti, divise"),
    "detail.partida3.pot": ("; {n} cannot be shared and goes to the pot",
                            "; {n} non si può dividere e va nel piatto"),
    "detail.accusa": ("{who} declared {what}: 1 marca from each other player",
                      "{who} ha accusato {what}: 1 marca da ciascun altro giocatore"),
    "detail.accusa.surrender": (("{who} declared {what}; the surrendering declarer pays its "
                                "value"), ("{who} ha accusato {what}; il dichiarante che si "
                                         "arrende ne paga il valore")),
    "detail.bagatte.won": (("{who} won the last trick with the Bagatte: {n} marca from each "
                           "other player{doubled}"),
                           ("{who} ha vinto l'ultima presa col Bagatte: {n} marche da ciascun "
                           "altro giocatore{doubled}")),
    "detail.bagatte.lost": (("{who} lost the Bagatte in the last trick (petar bagatte): {n} "
                            "marca to each other player{doubled}"),
                            ("{who} ha perso il Bagatte all'ultima presa (petar bagatte): {n} "
                            "marche a ciascun altro giocatore{doubled}")),
    "detail.bagatte.doubled": (" (doubled sans prendre)", " (doppio sans prendre)"),
    "detail.surrender": (("{who} called a card of their own and surrendered: 1 marca to each "
                         "other player"), ("{who} ha chiamato una carta sua e si è arreso: 1 "
                                         "marca a ciascun altro giocatore")),
    "detail.pot_collected": ("{who} is the sole top scorer and collects the pot: {n} marca",
                             "{who} ha fatto più punti da solo e prende il piatto: {n} marche"),
    "detail.flows": ("{payer} → {payee} {n}", "{payer} → {payee} {n}"),
    "detail.violation": ("Trick {trick}: {who} played {card}: {rule}{proof}",
                         "Presa {trick}: {who} ha giocato {card}: {rule}{proof}"),
    "detail.proof": (" (shown by {card} in trick {trick})",
                     " (lo prova {card} nella presa {trick})"),
    "violation.must_follow_suit": ("must follow suit", "doveva rispondere al seme"),
    "violation.must_trump": ("void in the suit led, must play a trump",
                             "senza carte del seme, doveva giocare un trionfo"),
    "violation.must_follow_trump": ("trumps led, must play a trump",
                                    "a trionfi, doveva rispondere a trionfo"),
    "violation.illegal_signal": ("illegal signal", "segnale non consentito"),
    "violation.other": ("{rule}", "{rule}"),
    # -- meld and combination names ---------------------------------------------------------
    "meld.frilli": ("{n} frilli", "{n} frilli"),
    "meld.trumps": ("{n} trumps", "{n} trionfi"),
    "meld.gatti": ("gatti", "gatti"),
    "meld.family": ("family of {suit}", "famiglia di {suit}"),
    "meld.four_of_a_kind": ("four {rank}", "quaterno di {rank}"),
    "meld.three_of_a_kind": ("three {rank}", "terno di {rank}"),
    "rank.J": ("Jacks", "fanti"),
    "rank.C": ("Cavaliers", "cavalli"),
    "rank.Q": ("Queens", "regine"),
    "rank.K": ("Kings", "re"),
    "cricca": ("cricca of {count} {type}", "cricca di {count} {type}"),
    "cricca.all_four": ("all four", "quattro"),
    "cricca.three": ("three", "tre"),
    "cricca.tarocchi": ("tarocchi", "tarocchi"),
    "cricca.K": ("Kings", "re"),
    "cricca.Q": ("Queens", "regine"),
    "cricca.C": ("Knights", "cavalli"),
    "cricca.J": ("Jacks", "fanti"),
    "cricche": ("cricche", "cricche"),
    "sequence": ("sequence of {n} {type}", "sequenza di {n} {type}"),
    "sequences": ("sequences", "sequenze"),
    "sequence.trumps": ("trumps", "trionfi"),
    "sequence.moors": ("Moors", "Mori"),
    "sequence.aces": ("aces", "assi"),
    "sequence.suit": ("{suit} (suit)", "carte di {suit}"),
    "accusa.ten_tarocchi": ("ten tarocchi", "dieci tarocchi"),
    "accusa.mitigatti": ("mitigatti (the three honours)", "mitigatti (i tre onori)"),
    "accusa.quatre_rei": ("quatre rei (the four Kings)", "quatre rei (i quattro re)"),
}

_MONTHS = {
    "en": ("January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December"),
    "it": ("gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto",
           "settembre", "ottobre", "novembre", "dicembre"),
}


def normalise_language(lang: str | None) -> str | None:
    """``en`` or ``it`` (any case, or a tag such as ``it-IT``); ``None`` when not one of
    them; the default for no language at all."""
    if lang is None or not lang.strip():
        return DEFAULT_LANGUAGE
    primary = lang.strip().lower().replace("_", "-").split("-")[0]
    return primary if primary in LANGUAGES else None


#: Currencies written with a sign rather than their code.
_CURRENCY_SIGNS = {"EUR": "€", "GBP": "£", "USD": "$"}


class Translator:
    """The catalogue in one language."""

    def __init__(self, lang: str, seat_names: Sequence[str] | None = None) -> None:
        """``seat_names``, when given, name the seats: a table says "Anna declared", not
        "seat 0 declared"."""
        if lang not in LANGUAGES:
            raise ValueError(f"no language {lang!r}; the sheet speaks {', '.join(LANGUAGES)}")
        self.lang = lang
        self._index = LANGUAGES.index(lang)
        self.seat_names = list(seat_names) if seat_names is not None else None

    def __call__(self, key: str, **values: object) -> str:
        return CATALOGUE[key][self._index].format(**values)

    def has(self, key: str) -> bool:
        return key in CATALOGUE

    def get(self, key: str, default: str, **values: object) -> str:
        """The entry for ``key`` if the catalogue has one, else ``default`` (for words of a
        variant the catalogue does not know yet)."""
        return self(key, **values) if key in CATALOGUE else default

    def number(self, value: int) -> str:
        """A whole number, negative with a true minus sign."""
        return f"−{-value}" if value < 0 else str(value)

    def signed(self, value: int) -> str:
        """A change: ``+2``, ``−1``, ``0``."""
        return f"+{value}" if value > 0 else self.number(value)

    def money(self, value: Decimal, currency: str | None = None) -> str:
        """Money as the language writes it, with its currency where one is given:
        ``3,50 €`` in Italian, ``€3.50`` in English, ``CHF 3.50`` for a code with no sign."""
        text = f"{abs(value):.2f}"
        if self.lang == "it":
            text = text.replace(".", ",")
        if currency:
            sign = _CURRENCY_SIGNS.get(currency)
            if self.lang == "it":
                text = f"{text} {sign or currency}"
            else:
                text = f"{sign}{text}" if sign else f"{currency} {text}"
        return f"−{text}" if value < 0 else text

    def date(self, when: datetime, zone: str = "UTC") -> str:
        """A time as the table's clocks showed it: in the game's time zone, named by its
        abbreviation (``CET``, ``CEST``), or by its offset where it has none."""
        try:
            local = when.astimezone(ZoneInfo(zone)) if when.tzinfo else when
        except (ZoneInfoNotFoundError, ValueError):
            local = when
        month = _MONTHS[self.lang][local.month - 1]
        clock = local.strftime("%H:%M")
        name = local.strftime("%Z") or "UTC"
        if name[:1] in "+-":
            name = f"UTC{name}"
        return f"{local.day} {month} {local.year}, {clock} {name}"

    def seat(self, seat: int, *, capital: bool = False) -> str:
        if self.seat_names is not None:
            return self.seat_names[seat]
        return self("seat.cap" if capital else "seat", n=seat)

    def seats(self, seats: tuple[int, ...] | list[int], *, capital: bool = False) -> str:
        """``seat 1``, ``seats 0 and 2``, ``seats 0, 2 and 3`` (``Anna and Carla`` where
        the seats have names)."""
        seats = list(seats)
        if self.seat_names is not None:
            return self.names([self.seat_names[s] for s in seats])
        if len(seats) == 1:
            return self.seat(seats[0], capital=capital)
        prefix = "seats.cap" if capital else "seats"
        if len(seats) == 2:
            return self(f"{prefix}.two", a=seats[0], b=seats[1])
        return self(f"{prefix}.many", list=", ".join(map(str, seats[:-1])), last=seats[-1])

    def names(self, names: list[str]) -> str:
        """``Anna``, ``Anna and Bruno``, ``Anna, Bruno and Carla``."""
        if len(names) <= 1:
            return "".join(names)
        return f"{', '.join(names[:-1])} {self('and')} {names[-1]}"


def catalogue_placeholders(text: str) -> set[str]:
    """The ``{names}`` a catalogue entry takes."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def missing_translations(catalogue: Mapping[str, tuple[str, ...]] = CATALOGUE) -> list[str]:
    """Keys whose entries are empty, or whose languages take different placeholders."""
    bad = []
    for key, texts in catalogue.items():
        if len(texts) != len(LANGUAGES) or not all(t.strip() for t in texts) or len({frozenset(catalogue_placeholders(t)) for t in texts}) != 1:
            bad.append(key)
    return bad
