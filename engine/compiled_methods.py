"""The source attrs writes for the methods of each of batchlog's classes, compiled with this module rather than in
every process (engine/value.py says how it is used). Written by `python -m batchlog.cli.methods_writer --write`
with attrs 26.1.0: do not edit (tests/test_value.py fails when it differs from what the writer writes).

Each function's body is one class's source as attrs writes it, one indent deeper; it returns what the source
defines. METHODS maps the source's exact text to its function.
"""

from __future__ import annotations  # as in attrs' module, whose compiling the sources inherits it

# ruff: noqa: F821  (the names the sources use are attrs', given as the functions' globals when they are called)

def _0():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.scheme == other.scheme and
            self.user == other.user and
            self.password == other.password and
            self.hosts == other.hosts and
            self.path == other.path and
            self.query == other.query
        )
    def __init__(self, scheme, user, password, hosts, path, query):
        _setattr = _cached_setattr_get(self)
        _setattr('scheme', scheme)
        _setattr('user', user)
        _setattr('password', password)
        _setattr('hosts', hosts)
        _setattr('path', path)
        _setattr('query', query)
    return locals()


def _1():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.store == other.store and
            self.shown == other.shown and
            self.path == other.path and
            self.name == other.name and
            self.dsn == other.dsn
        )
    def __init__(self, store, shown, path=attr_dict['path'].default, name=attr_dict['name'].default, dsn=attr_dict['dsn'].default):
        _setattr = _cached_setattr_get(self)
        _setattr('store', store)
        _setattr('shown', shown)
        _setattr('path', path)
        _setattr('name', name)
        _setattr('dsn', dsn)
    return locals()


def _2():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.seq == other.seq and
            self.type == other.type and
            self.v == other.v and
            self.at == other.at and
            self.id == other.id and
            self.data == other.data
        )
    def __init__(self, seq, type, v, at, id, data):
        _setattr = _cached_setattr_get(self)
        _setattr('seq', seq)
        _setattr('type', type)
        _setattr('v', v)
        _setattr('at', at)
        _setattr('id', id)
        _setattr('data', data)
    return locals()


def _3():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.modules == other.modules
        )
    def __init__(self, modules):
        _setattr = _cached_setattr_get(self)
        _setattr('modules', modules)
    return locals()


def _4():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.name == other.name and
            self.version == other.version and
            self.cls == other.cls and
            self.upcasters == other.upcasters and
            self.decode == other.decode and
            self.encode == other.encode
        )
    def __init__(self, name, version, cls=attr_dict['cls'].default, upcasters=attr_dict['upcasters'].default, decode=attr_dict['decode'].default, encode=attr_dict['encode'].default):
        _setattr = _cached_setattr_get(self)
        _setattr('name', name)
        _setattr('version', version)
        _setattr('cls', cls)
        _setattr('upcasters', upcasters)
        _setattr('decode', decode)
        _setattr('encode', encode)
        self.__attrs_post_init__()
    return locals()


def _5():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.type == other.type and
            self.data == other.data
        )
    def __init__(self, type, data=NOTHING):
        _setattr = _cached_setattr_get(self)
        _setattr('type', type)
        if data is not NOTHING:
            _setattr('data', data)
        else:
            _setattr('data', __attr_factory_data())
    return locals()


def _6():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.line == other.line and
            self.code == other.code and
            self.message == other.message and
            self.seq == other.seq
        )
    def __init__(self, line, code, message, seq=attr_dict['seq'].default):
        _setattr = _cached_setattr_get(self)
        _setattr('line', line)
        _setattr('code', code)
        _setattr('message', message)
        _setattr('seq', seq)
    return locals()


def _7():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.line == other.line and
            self.seq == other.seq and
            self.offset == other.offset and
            self.hash == other.hash and
            self.at == other.at
        )
    def __init__(self, line=attr_dict['line'].default, seq=attr_dict['seq'].default, offset=attr_dict['offset'].default, hash=attr_dict['hash'].default, at=attr_dict['at'].default):
        _setattr = _cached_setattr_get(self)
        _setattr('line', line)
        _setattr('seq', seq)
        _setattr('offset', offset)
        _setattr('hash', hash)
        _setattr('at', at)
    return locals()


def _8():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.start == other.start and
            self.ignored == other.ignored and
            self.bytes == other.bytes and
            self.lines == other.lines
        )
    def __init__(self, start=attr_dict['start'].default, ignored=attr_dict['ignored'].default, bytes=attr_dict['bytes'].default, lines=attr_dict['lines'].default):
        _setattr = _cached_setattr_get(self)
        _setattr('start', start)
        _setattr('ignored', ignored)
        _setattr('bytes', bytes)
        _setattr('lines', lines)
    return locals()


def _9():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.number == other.number and
            self.state == other.state and
            self.end == other.end and
            self.length == other.length and
            self.before == other.before and
            self.digest == other.digest
        )
    def __init__(self, number, state, end=attr_dict['end'].default, length=attr_dict['length'].default, before=attr_dict['before'].default, digest=attr_dict['digest'].default):
        _setattr = _cached_setattr_get(self)
        _setattr('number', number)
        _setattr('state', state)
        _setattr('end', end)
        _setattr('length', length)
        _setattr('before', before)
        _setattr('digest', digest)
    return locals()


def _10():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.size == other.size and
            self.complete == other.complete and
            self.marker == other.marker and
            self.tail == other.tail
        )
    def __init__(self, size, complete, marker, tail):
        _setattr = _cached_setattr_get(self)
        _setattr('size', size)
        _setattr('complete', complete)
        _setattr('marker', marker)
        _setattr('tail', tail)
    return locals()


def _11():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.name == other.name and
            self.initial == other.initial and
            self.evolve == other.evolve and
            self.version == other.version and
            self.state_type == other.state_type and
            self.folds == other.folds and
            self.evolve_all == other.evolve_all
        )
    def __init__(self, name, initial, evolve, version=attr_dict['version'].default, state_type=attr_dict['state_type'].default, folds=attr_dict['folds'].default, evolve_all=attr_dict['evolve_all'].default):
        _setattr = _cached_setattr_get(self)
        _setattr('name', name)
        _setattr('initial', initial)
        _setattr('evolve', evolve)
        _setattr('version', version)
        _setattr('state_type', state_type)
        _setattr('folds', folds)
        _setattr('evolve_all', evolve_all)
    return locals()


def _12():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.state == other.state and
            self.position == other.position and
            self.bad == other.bad and
            self.newer == other.newer and
            self.torn == other.torn and
            self.end == other.end and
            self.first_bad == other.first_bad and
            self.marker == other.marker
        )
    def __init__(self, state, position, bad, newer, torn, end, first_bad=attr_dict['first_bad'].default, marker=attr_dict['marker'].default):
        _setattr = _cached_setattr_get(self)
        _setattr('state', state)
        _setattr('position', position)
        _setattr('bad', bad)
        _setattr('newer', newer)
        _setattr('torn', torn)
        _setattr('end', end)
        _setattr('first_bad', first_bad)
        _setattr('marker', marker)
    return locals()


def _13():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.events == other.events and
            self.state == other.state and
            self.before == other.before
        )
    def __init__(self, events, state, before):
        _setattr = _cached_setattr_get(self)
        _setattr('events', events)
        _setattr('state', state)
        _setattr('before', before)
    return locals()


def _14():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.projection == other.projection and
            self.token == other.token and
            self.last_line_start == other.last_line_start and
            self.replayed == other.replayed
        )
    def __init__(self, projection, token, last_line_start, replayed):
        _setattr = _cached_setattr_get(self)
        _setattr('projection', projection)
        _setattr('token', token)
        _setattr('last_line_start', last_line_start)
        _setattr('replayed', replayed)
    return locals()


def _15():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.seq == other.seq and
            self.digested == other.digested and
            self.digest == other.digest
        )
    def __init__(self, seq, digested, digest):
        _setattr = _cached_setattr_get(self)
        _setattr('seq', seq)
        _setattr('digested', digested)
        _setattr('digest', digest)
    return locals()


def _16():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.state == other.state and
            self.events == other.events and
            self.position == other.position and
            self.note == other.note and
            self.newer == other.newer
        )
    def __init__(self, state, events, position, note=attr_dict['note'].default, newer=attr_dict['newer'].default):
        _setattr = _cached_setattr_get(self)
        _setattr('state', state)
        _setattr('events', events)
        _setattr('position', position)
        _setattr('note', note)
        _setattr('newer', newer)
    return locals()


def _17():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.seq == other.seq and
            self.hash == other.hash and
            self.at == other.at
        )
    def __init__(self, seq, hash, at):
        _setattr = _cached_setattr_get(self)
        _setattr('seq', seq)
        _setattr('hash', hash)
        _setattr('at', at)
    return locals()


def _18():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.path == other.path and
            self.lines == other.lines and
            self.events == other.events and
            self.first_at == other.first_at and
            self.last_at == other.last_at and
            self.last_seq == other.last_seq and
            self.torn_bytes == other.torn_bytes and
            self.problems == other.problems and
            self.unfinished == other.unfinished and
            self.end == other.end and
            self.last_hash == other.last_hash
        )
    def __init__(self, path, lines, events, first_at, last_at, last_seq, torn_bytes, problems, unfinished=attr_dict['unfinished'].default, end=attr_dict['end'].default, last_hash=attr_dict['last_hash'].default):
        _setattr = _cached_setattr_get(self)
        _setattr('path', path)
        _setattr('lines', lines)
        _setattr('events', events)
        _setattr('first_at', first_at)
        _setattr('last_at', last_at)
        _setattr('last_seq', last_seq)
        _setattr('torn_bytes', torn_bytes)
        _setattr('problems', problems)
        _setattr('unfinished', unfinished)
        _setattr('end', end)
        _setattr('last_hash', last_hash)
    return locals()


def _19():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.source == other.source and
            self.destination == other.destination and
            self.events == other.events and
            self.bytes == other.bytes and
            self.last_seq == other.last_seq and
            self.last_hash == other.last_hash and
            self.sha256 == other.sha256
        )
    def __init__(self, source, destination, events, bytes, last_seq, last_hash, sha256):
        _setattr = _cached_setattr_get(self)
        _setattr('source', source)
        _setattr('destination', destination)
        _setattr('events', events)
        _setattr('bytes', bytes)
        _setattr('last_seq', last_seq)
        _setattr('last_hash', last_hash)
        _setattr('sha256', sha256)
    return locals()


def _20():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.path == other.path and
            self.kept_through_seq == other.kept_through_seq and
            self.dropped_lines == other.dropped_lines and
            self.dropped_bytes == other.dropped_bytes and
            self.reason == other.reason and
            self.damaged_copy == other.damaged_copy and
            self.event_seq == other.event_seq
        )
    def __init__(self, path, kept_through_seq, dropped_lines, dropped_bytes, reason, damaged_copy, event_seq):
        _setattr = _cached_setattr_get(self)
        _setattr('path', path)
        _setattr('kept_through_seq', kept_through_seq)
        _setattr('dropped_lines', dropped_lines)
        _setattr('dropped_bytes', dropped_bytes)
        _setattr('reason', reason)
        _setattr('damaged_copy', damaged_copy)
        _setattr('event_seq', event_seq)
    return locals()


def _21():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.kept == other.kept and
            self.kept_bytes == other.kept_bytes and
            self.last_hash == other.last_hash and
            self.lines == other.lines and
            self.bytes == other.bytes and
            self.dropped_types == other.dropped_types
        )
    def __init__(self, kept, kept_bytes, last_hash, lines, bytes, dropped_types):
        _setattr = _cached_setattr_get(self)
        _setattr('kept', kept)
        _setattr('kept_bytes', kept_bytes)
        _setattr('last_hash', last_hash)
        _setattr('lines', lines)
        _setattr('bytes', bytes)
        _setattr('dropped_types', dropped_types)
    return locals()


def _22():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.path == other.path and
            self.agrees == other.agrees and
            self.message == other.message
        )
    def __init__(self, path, agrees, message):
        _setattr = _cached_setattr_get(self)
        _setattr('path', path)
        _setattr('agrees', agrees)
        _setattr('message', message)
    return locals()


def _23():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.name == other.name and
            self.initial == other.initial and
            self.evolve == other.evolve and
            self.version == other.version and
            self.state_type == other.state_type and
            self.folds == other.folds and
            self.evolve_all == other.evolve_all and
            self.decide == other.decide and
            self.registry == other.registry and
            self.wrong_log == other.wrong_log and
            self.events == other.events and
            self.views == other.views
        )
    def __init__(self, name, initial, evolve, version=attr_dict['version'].default, state_type=attr_dict['state_type'].default, folds=attr_dict['folds'].default, evolve_all=attr_dict['evolve_all'].default, *, decide, registry, wrong_log, events=attr_dict['events'].default, views=attr_dict['views'].default):
        _setattr = _cached_setattr_get(self)
        _setattr('name', name)
        _setattr('initial', initial)
        _setattr('evolve', evolve)
        _setattr('version', version)
        _setattr('state_type', state_type)
        _setattr('folds', folds)
        _setattr('evolve_all', evolve_all)
        _setattr('decide', decide)
        _setattr('registry', registry)
        _setattr('wrong_log', wrong_log)
        _setattr('events', events)
        _setattr('views', views)
    return locals()


def _24():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.batch == other.batch and
            self.target == other.target and
            self.language_hint == other.language_hint and
            self.scope_hint == other.scope_hint
        )
    def __init__(self, batch, target, language_hint=attr_dict['language_hint'].default, scope_hint=attr_dict['scope_hint'].default):
        _setattr = _cached_setattr_get(self)
        _setattr('batch', batch)
        _setattr('target', target)
        _setattr('language_hint', language_hint)
        _setattr('scope_hint', scope_hint)
    return locals()


def _25():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.kind == other.kind and
            self.path == other.path and
            self.payload == other.payload
        )
    def __init__(self, kind, path, payload):
        _setattr = _cached_setattr_get(self)
        _setattr('kind', kind)
        _setattr('path', path)
        _setattr('payload', payload)
    return locals()


def _26():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.message == other.message and
            self.path == other.path
        )
    def __init__(self, message, path):
        _setattr = _cached_setattr_get(self)
        _setattr('message', message)
        _setattr('path', path)
    return locals()


def _27():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.halt_reason == other.halt_reason and
            self.message == other.message and
            self.name == other.name
        )
    def __init__(self, halt_reason=attr_dict['halt_reason'].default, message=attr_dict['message'].default, name=attr_dict['name'].default):
        _setattr = _cached_setattr_get(self)
        _setattr('halt_reason', halt_reason)
        _setattr('message', message)
        _setattr('name', name)
    return locals()


def _28():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.run_dir == other.run_dir and
            self.input_file == other.input_file and
            self.targets == other.targets and
            self.fail_fast == other.fail_fast and
            self.started_at == other.started_at and
            self.exit_codes == other.exit_codes and
            self.input_from_run_dir == other.input_from_run_dir
        )
    def __init__(self, run_dir, input_file, targets, fail_fast, started_at, exit_codes=attr_dict['exit_codes'].default, input_from_run_dir=attr_dict['input_from_run_dir'].default):
        _setattr = _cached_setattr_get(self)
        _setattr('run_dir', run_dir)
        _setattr('input_file', input_file)
        _setattr('targets', targets)
        _setattr('fail_fast', fail_fast)
        _setattr('started_at', started_at)
        _setattr('exit_codes', exit_codes)
        _setattr('input_from_run_dir', input_from_run_dir)
    return locals()


def _29():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.batch_dir == other.batch_dir and
            self.briefs == other.briefs and
            self.checks == other.checks and
            self.fail_fast == other.fail_fast and
            self.started_at == other.started_at and
            self.batch_id == other.batch_id and
            self.exit_codes == other.exit_codes
        )
    def __init__(self, batch_dir, briefs, checks, fail_fast, started_at, batch_id, exit_codes=attr_dict['exit_codes'].default):
        _setattr = _cached_setattr_get(self)
        _setattr('batch_dir', batch_dir)
        _setattr('briefs', briefs)
        _setattr('checks', checks)
        _setattr('fail_fast', fail_fast)
        _setattr('started_at', started_at)
        _setattr('batch_id', batch_id)
        _setattr('exit_codes', exit_codes)
    return locals()


def _30():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.run_dir == other.run_dir and
            self.batch == other.batch and
            self.staged == other.staged
        )
    def __init__(self, run_dir, batch, staged):
        _setattr = _cached_setattr_get(self)
        _setattr('run_dir', run_dir)
        _setattr('batch', batch)
        _setattr('staged', staged)
    return locals()


def _31():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.run_dir == other.run_dir and
            self.number == other.number and
            self.staged == other.staged and
            self.exit_codes == other.exit_codes
        )
    def __init__(self, run_dir, number, staged, exit_codes=attr_dict['exit_codes'].default):
        _setattr = _cached_setattr_get(self)
        _setattr('run_dir', run_dir)
        _setattr('number', number)
        _setattr('staged', staged)
        _setattr('exit_codes', exit_codes)
    return locals()


def _32():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.run_dir == other.run_dir and
            self.output_dir == other.output_dir and
            self.output_inside == other.output_inside and
            self.timestamp == other.timestamp
        )
    def __init__(self, run_dir, output_dir, output_inside, timestamp):
        _setattr = _cached_setattr_get(self)
        _setattr('run_dir', run_dir)
        _setattr('output_dir', output_dir)
        _setattr('output_inside', output_inside)
        _setattr('timestamp', timestamp)
    return locals()


def _33():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.run_dir == other.run_dir and
            self.summary_path == other.summary_path and
            self.warnings == other.warnings
        )
    def __init__(self, run_dir, summary_path, warnings=attr_dict['warnings'].default):
        _setattr = _cached_setattr_get(self)
        _setattr('run_dir', run_dir)
        _setattr('summary_path', summary_path)
        _setattr('warnings', __attr_converter_warnings(warnings))
    return locals()


def _34():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.log == other.log and
            self.events == other.events
        )
    def __init__(self, log, events):
        _setattr = _cached_setattr_get(self)
        _setattr('log', log)
        _setattr('events', __attr_converter_events(events))
    return locals()


def _35():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.run_dir == other.run_dir and
            self.keep_prefix == other.keep_prefix
        )
    def __init__(self, run_dir, keep_prefix):
        _setattr = _cached_setattr_get(self)
        _setattr('run_dir', run_dir)
        _setattr('keep_prefix', keep_prefix)
    return locals()


def _36():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.folder == other.folder
        )
    def __init__(self, folder):
        _setattr = _cached_setattr_get(self)
        _setattr('folder', folder)
    return locals()


def _37():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.output_dir == other.output_dir and
            self.stem == other.stem and
            self.stamp == other.stamp and
            self.record == other.record
        )
    def __init__(self, output_dir, stem, stamp, record):
        _setattr = _cached_setattr_get(self)
        _setattr('output_dir', output_dir)
        _setattr('stem', stem)
        _setattr('stamp', stamp)
        _setattr('record', record)
    return locals()


def _38():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.run_dir == other.run_dir and
            self.summary_path == other.summary_path
        )
    def __init__(self, run_dir, summary_path):
        _setattr = _cached_setattr_get(self)
        _setattr('run_dir', run_dir)
        _setattr('summary_path', summary_path)
    return locals()


def _39():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.events == other.events and
            self.effects == other.effects and
            self.answer == other.answer
        )
    def __init__(self, events=attr_dict['events'].default, effects=attr_dict['effects'].default, answer=attr_dict['answer'].default):
        _setattr = _cached_setattr_get(self)
        _setattr('events', events)
        _setattr('effects', effects)
        _setattr('answer', answer)
    return locals()


def _40():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.workflow == other.workflow and
            self.input_file == other.input_file and
            self.input_briefs == other.input_briefs and
            self.fail_fast == other.fail_fast and
            self.started_at == other.started_at and
            self.batch_id == other.batch_id and
            self.targets == other.targets and
            self.exit_codes == other.exit_codes
        )
    def __init__(self, workflow, input_file, input_briefs, fail_fast, started_at, batch_id=attr_dict['batch_id'].default, targets=attr_dict['targets'].default, exit_codes=attr_dict['exit_codes'].default):
        _setattr = _cached_setattr_get(self)
        _setattr('workflow', workflow)
        _setattr('input_file', input_file)
        _setattr('input_briefs', __attr_converter_input_briefs(input_briefs))
        _setattr('fail_fast', fail_fast)
        _setattr('started_at', started_at)
        _setattr('batch_id', batch_id)
        _setattr('targets', __attr_converter_targets(targets))
        _setattr('exit_codes', exit_codes)
    return locals()


def _41():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.batch == other.batch and
            self.target == other.target
        )
    def __init__(self, batch, target):
        _setattr = _cached_setattr_get(self)
        _setattr('batch', batch)
        _setattr('target', target)
    return locals()


def _42():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.batch == other.batch and
            self.target == other.target and
            self.status == other.status and
            self.exit_code == other.exit_code and
            self.skill_package == other.skill_package and
            self.error_code == other.error_code and
            self.quality_score == other.quality_score and
            self.error_code_json == other.error_code_json
        )
    def __init__(self, batch, target, status, exit_code, skill_package=attr_dict['skill_package'].default, error_code=attr_dict['error_code'].default, quality_score=attr_dict['quality_score'].default, error_code_json=attr_dict['error_code_json'].default):
        _setattr = _cached_setattr_get(self)
        _setattr('batch', batch)
        _setattr('target', target)
        _setattr('status', status)
        _setattr('exit_code', exit_code)
        _setattr('skill_package', skill_package)
        _setattr('error_code', error_code)
        _setattr('quality_score', quality_score)
        _setattr('error_code_json', error_code_json)
    return locals()


def _43():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.batch == other.batch and
            self.target == other.target and
            self.error_code == other.error_code and
            self.exit_code == other.exit_code and
            self.message == other.message
        )
    def __init__(self, batch, target, error_code, exit_code, message):
        _setattr = _cached_setattr_get(self)
        _setattr('batch', batch)
        _setattr('target', target)
        _setattr('error_code', error_code)
        _setattr('exit_code', exit_code)
        _setattr('message', message)
    return locals()


def _44():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.status == other.status and
            self.timestamp == other.timestamp and
            self.targets_total == other.targets_total and
            self.succeeded == other.succeeded and
            self.failed == other.failed and
            self.fail_fast_triggered == other.fail_fast_triggered and
            self.exit_code == other.exit_code and
            self.summary_path == other.summary_path and
            self.warnings == other.warnings and
            self.output_dir == other.output_dir and
            self.output_inside == other.output_inside
        )
    def __init__(self, status, timestamp, targets_total, succeeded, failed, fail_fast_triggered, exit_code, summary_path, warnings=attr_dict['warnings'].default, output_dir=attr_dict['output_dir'].default, output_inside=attr_dict['output_inside'].default):
        _setattr = _cached_setattr_get(self)
        _setattr('status', status)
        _setattr('timestamp', timestamp)
        _setattr('targets_total', targets_total)
        _setattr('succeeded', succeeded)
        _setattr('failed', failed)
        _setattr('fail_fast_triggered', fail_fast_triggered)
        _setattr('exit_code', exit_code)
        _setattr('summary_path', summary_path)
        _setattr('warnings', __attr_converter_warnings(warnings))
        _setattr('output_dir', output_dir)
        _setattr('output_inside', output_inside)
    return locals()


def _45():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.summary_path == other.summary_path and
            self.warnings == other.warnings
        )
    def __init__(self, summary_path, warnings=attr_dict['warnings'].default):
        _setattr = _cached_setattr_get(self)
        _setattr('summary_path', summary_path)
        _setattr('warnings', __attr_converter_warnings(warnings))
    return locals()


def _46():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.started == other.started and
            self.results == other.results and
            self.handed_out == other.handed_out and
            self.recorded_at == other.recorded_at and
            self.summary == other.summary and
            self.summarized_at == other.summarized_at and
            self.summarized_results == other.summarized_results and
            self.summary_written == other.summary_written and
            self.foreign == other.foreign
        )
    def __init__(self, started=attr_dict['started'].default, results=NOTHING, handed_out=NOTHING, recorded_at=NOTHING, summary=attr_dict['summary'].default, summarized_at=attr_dict['summarized_at'].default, summarized_results=attr_dict['summarized_results'].default, summary_written=attr_dict['summary_written'].default, foreign=attr_dict['foreign'].default):
        _setattr = _cached_setattr_get(self)
        _setattr('started', started)
        if results is not NOTHING:
            _setattr('results', results)
        else:
            _setattr('results', __attr_factory_results())
        if handed_out is not NOTHING:
            _setattr('handed_out', handed_out)
        else:
            _setattr('handed_out', __attr_factory_handed_out())
        if recorded_at is not NOTHING:
            _setattr('recorded_at', recorded_at)
        else:
            _setattr('recorded_at', __attr_factory_recorded_at())
        _setattr('summary', summary)
        _setattr('summarized_at', summarized_at)
        _setattr('summarized_results', summarized_results)
        _setattr('summary_written', summary_written)
        _setattr('foreign', foreign)
    return locals()


def _47():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.run_dir == other.run_dir and
            self.workflow == other.workflow and
            self.source == other.source and
            self.total == other.total and
            self.done == other.done and
            self.failed == other.failed and
            self.in_progress == other.in_progress and
            self.pending == other.pending and
            self.current == other.current and
            self.current_seconds == other.current_seconds and
            self.elapsed == other.elapsed and
            self.left == other.left and
            self.per_target == other.per_target and
            self.last == other.last and
            self.summarized == other.summarized
        )
    def __init__(self, run_dir, workflow, source, total, done, failed, in_progress, pending, current, current_seconds, elapsed, left, per_target, last, summarized):
        _setattr = _cached_setattr_get(self)
        _setattr('run_dir', run_dir)
        _setattr('workflow', workflow)
        _setattr('source', source)
        _setattr('total', total)
        _setattr('done', done)
        _setattr('failed', failed)
        _setattr('in_progress', in_progress)
        _setattr('pending', pending)
        _setattr('current', current)
        _setattr('current_seconds', current_seconds)
        _setattr('elapsed', elapsed)
        _setattr('left', left)
        _setattr('per_target', per_target)
        _setattr('last', last)
        _setattr('summarized', summarized)
    return locals()


def _48():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.dataset == other.dataset and
            self.limit == other.limit and
            self.min_batch == other.min_batch and
            self.max_batch == other.max_batch and
            self.recheck == other.recheck and
            self.seed == other.seed and
            self.max_retries == other.max_retries and
            self.concurrency == other.concurrency and
            self.imported_from == other.imported_from and
            self.name == other.name
        )
    def __init__(self, dataset, limit, min_batch, max_batch, recheck, seed, max_retries, concurrency, imported_from=attr_dict['imported_from'].default, name=attr_dict['name'].default):
        _setattr = _cached_setattr_get(self)
        _setattr('dataset', dataset)
        _setattr('limit', limit)
        _setattr('min_batch', min_batch)
        _setattr('max_batch', max_batch)
        _setattr('recheck', recheck)
        _setattr('seed', seed)
        _setattr('max_retries', max_retries)
        _setattr('concurrency', concurrency)
        _setattr('imported_from', imported_from)
        _setattr('name', name)
    return locals()


def _49():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.id == other.id and
            self.class_name == other.class_name and
            self.complexity == other.complexity and
            self.rubric == other.rubric and
            self.body == other.body
        )
    def __init__(self, id, class_name, complexity, rubric, body):
        _setattr = _cached_setattr_get(self)
        _setattr('id', id)
        _setattr('class_name', class_name)
        _setattr('complexity', complexity)
        _setattr('rubric', rubric)
        _setattr('body', body)
    return locals()


def _50():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.number == other.number and
            self.size == other.size and
            self.why == other.why and
            self.kind == other.kind and
            self.new == other.new and
            self.recheck == other.recheck and
            self.unused_after == other.unused_after and
            self.open_difficult == other.open_difficult and
            self.size_override == other.size_override and
            self.recheck_override == other.recheck_override and
            self.seed_override == other.seed_override and
            self.built_seq == other.built_seq and
            self.built_at == other.built_at
        )
    def __init__(self, number, size, why, kind, new, recheck, unused_after, open_difficult, size_override, recheck_override, seed_override, built_seq, built_at):
        _setattr = _cached_setattr_get(self)
        _setattr('number', number)
        _setattr('size', size)
        _setattr('why', why)
        _setattr('kind', kind)
        _setattr('new', new)
        _setattr('recheck', recheck)
        _setattr('unused_after', unused_after)
        _setattr('open_difficult', open_difficult)
        _setattr('size_override', size_override)
        _setattr('recheck_override', recheck_override)
        _setattr('seed_override', seed_override)
        _setattr('built_seq', built_seq)
        _setattr('built_at', built_at)
    return locals()


def _51():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.file == other.file and
            self.summary == other.summary and
            self.lines == other.lines and
            self.seq == other.seq
        )
    def __init__(self, file, summary, lines, seq):
        _setattr = _cached_setattr_get(self)
        _setattr('file', file)
        _setattr('summary', summary)
        _setattr('lines', lines)
        _setattr('seq', seq)
    return locals()


def _52():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.model == other.model and
            self.calls == other.calls and
            self.input_tokens == other.input_tokens and
            self.output_tokens == other.output_tokens and
            self.reports == other.reports
        )
    def __init__(self, model, calls, input_tokens, output_tokens, reports):
        _setattr = _cached_setattr_get(self)
        _setattr('model', model)
        _setattr('calls', calls)
        _setattr('input_tokens', input_tokens)
        _setattr('output_tokens', output_tokens)
        _setattr('reports', reports)
    return locals()


def _53():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.name == other.name and
            self.batch == other.batch and
            self.kind == other.kind and
            self.number == other.number and
            self.cases == other.cases and
            self.started_seq == other.started_seq and
            self.started_at == other.started_at and
            self.verdict == other.verdict and
            self.wrong == other.wrong and
            self.llm_calls == other.llm_calls and
            self.tokens == other.tokens and
            self.saved_twice == other.saved_twice and
            self.findings == other.findings and
            self.note == other.note and
            self.graded_seq == other.graded_seq and
            self.graded_at == other.graded_at and
            self.verdict_seq == other.verdict_seq and
            self.changes == other.changes and
            self.usage == other.usage
        )
    def __init__(self, name, batch, kind, number, cases, started_seq, started_at, verdict=attr_dict['verdict'].default, wrong=attr_dict['wrong'].default, llm_calls=attr_dict['llm_calls'].default, tokens=attr_dict['tokens'].default, saved_twice=attr_dict['saved_twice'].default, findings=attr_dict['findings'].default, note=attr_dict['note'].default, graded_seq=attr_dict['graded_seq'].default, graded_at=attr_dict['graded_at'].default, verdict_seq=attr_dict['verdict_seq'].default, changes=attr_dict['changes'].default, usage=attr_dict['usage'].default):
        _setattr = _cached_setattr_get(self)
        _setattr('name', name)
        _setattr('batch', batch)
        _setattr('kind', kind)
        _setattr('number', number)
        _setattr('cases', cases)
        _setattr('started_seq', started_seq)
        _setattr('started_at', started_at)
        _setattr('verdict', verdict)
        _setattr('wrong', wrong)
        _setattr('llm_calls', llm_calls)
        _setattr('tokens', tokens)
        _setattr('saved_twice', saved_twice)
        _setattr('findings', findings)
        _setattr('note', note)
        _setattr('graded_seq', graded_seq)
        _setattr('graded_at', graded_at)
        _setattr('verdict_seq', verdict_seq)
        _setattr('changes', changes)
        _setattr('usage', usage)
    return locals()


def _54():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.run == other.run and
            self.text == other.text
        )
    def __init__(self, run, text):
        _setattr = _cached_setattr_get(self)
        _setattr('run', run)
        _setattr('text', text)
    return locals()


def _55():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.case == other.case and
            self.reasons == other.reasons and
            self.added == other.added and
            self.added_seq == other.added_seq and
            self.fixed == other.fixed and
            self.fixed_seq == other.fixed_seq and
            self.notes == other.notes and
            self.withdrawn == other.withdrawn and
            self.withdrawn_seq == other.withdrawn_seq
        )
    def __init__(self, case, reasons, added, added_seq, fixed=attr_dict['fixed'].default, fixed_seq=attr_dict['fixed_seq'].default, notes=attr_dict['notes'].default, withdrawn=attr_dict['withdrawn'].default, withdrawn_seq=attr_dict['withdrawn_seq'].default):
        _setattr = _cached_setattr_get(self)
        _setattr('case', case)
        _setattr('reasons', reasons)
        _setattr('added', added)
        _setattr('added_seq', added_seq)
        _setattr('fixed', fixed)
        _setattr('fixed_seq', fixed_seq)
        _setattr('notes', notes)
        _setattr('withdrawn', withdrawn)
        _setattr('withdrawn_seq', withdrawn_seq)
    return locals()


def _56():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.batch == other.batch and
            self.nodes == other.nodes and
            self.seq == other.seq and
            self.at == other.at
        )
    def __init__(self, batch, nodes, seq, at):
        _setattr = _cached_setattr_get(self)
        _setattr('batch', batch)
        _setattr('nodes', nodes)
        _setattr('seq', seq)
        _setattr('at', at)
    return locals()


def _57():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.run == other.run and
            self.was == other.was and
            self.verdict == other.verdict and
            self.reason == other.reason and
            self.seq == other.seq and
            self.at == other.at
        )
    def __init__(self, run, was, verdict, reason, seq, at):
        _setattr = _cached_setattr_get(self)
        _setattr('run', run)
        _setattr('was', was)
        _setattr('verdict', verdict)
        _setattr('reason', reason)
        _setattr('seq', seq)
        _setattr('at', at)
    return locals()


def _58():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.settings == other.settings and
            self.cases == other.cases and
            self.selection == other.selection and
            self.batches == other.batches and
            self.runs == other.runs and
            self.difficult == other.difficult and
            self.memories == other.memories and
            self.corrections == other.corrections and
            self.foreign == other.foreign
        )
    def __init__(self, settings=attr_dict['settings'].default, cases=attr_dict['cases'].default, selection=attr_dict['selection'].default, batches=attr_dict['batches'].default, runs=attr_dict['runs'].default, difficult=attr_dict['difficult'].default, memories=attr_dict['memories'].default, corrections=attr_dict['corrections'].default, foreign=attr_dict['foreign'].default):
        _setattr = _cached_setattr_get(self)
        _setattr('settings', settings)
        _setattr('cases', cases)
        _setattr('selection', selection)
        _setattr('batches', batches)
        _setattr('runs', runs)
        _setattr('difficult', difficult)
        _setattr('memories', memories)
        _setattr('corrections', corrections)
        _setattr('foreign', foreign)
        _setattr('_run_index', attr_dict['_run_index'].default)
    return locals()


def _59():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.id == other.id and
            self.reasons == other.reasons and
            self.added == other.added and
            self.fixed == other.fixed
        )
    def __init__(self, id, reasons, added, fixed=attr_dict['fixed'].default):
        _setattr = _cached_setattr_get(self)
        _setattr('id', id)
        _setattr('reasons', __attr_converter_reasons(reasons))
        _setattr('added', added)
        _setattr('fixed', fixed)
    return locals()


def _60():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.min_batch == other.min_batch and
            self.max_batch == other.max_batch and
            self.recheck == other.recheck and
            self.seed == other.seed and
            self.max_retries == other.max_retries
        )
    def __init__(self, min_batch=attr_dict['min_batch'].default, max_batch=attr_dict['max_batch'].default, recheck=attr_dict['recheck'].default, seed=attr_dict['seed'].default, max_retries=attr_dict['max_retries'].default):
        _setattr = _cached_setattr_get(self)
        _setattr('min_batch', min_batch)
        _setattr('max_batch', max_batch)
        _setattr('recheck', recheck)
        _setattr('seed', seed)
        _setattr('max_retries', max_retries)
    return locals()


def _61():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.selection == other.selection and
            self.complexity == other.complexity and
            self.settings == other.settings and
            self.batches == other.batches and
            self.sizes == other.sizes and
            self.runs == other.runs and
            self.difficult == other.difficult
        )
    def __init__(self, selection, complexity, settings, batches, sizes, runs, difficult=attr_dict['difficult'].default):
        _setattr = _cached_setattr_get(self)
        _setattr('selection', __attr_converter_selection(selection))
        _setattr('complexity', complexity)
        _setattr('settings', settings)
        _setattr('batches', batches)
        _setattr('sizes', sizes)
        _setattr('runs', __attr_converter_runs(runs))
        _setattr('difficult', difficult)
        _setattr('_used', attr_dict['_used'].default)
        _setattr('_selected', attr_dict['_selected'].default)
    return locals()


def _62():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.size == other.size and
            self.why == other.why
        )
    def __init__(self, size, why):
        _setattr = _cached_setattr_get(self)
        _setattr('size', size)
        _setattr('why', why)
    return locals()


def _63():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.number == other.number and
            self.size == other.size and
            self.why == other.why and
            self.kind == other.kind and
            self.new == other.new and
            self.recheck == other.recheck and
            self.unused_after == other.unused_after and
            self.open_difficult == other.open_difficult
        )
    def __init__(self, number, size, why, kind, new, recheck, unused_after, open_difficult):
        _setattr = _cached_setattr_get(self)
        _setattr('number', number)
        _setattr('size', size)
        _setattr('why', why)
        _setattr('kind', kind)
        _setattr('new', new)
        _setattr('recheck', recheck)
        _setattr('unused_after', unused_after)
        _setattr('open_difficult', open_difficult)
    return locals()


def _64():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.dataset == other.dataset and
            self.cases == other.cases and
            self.selection == other.selection and
            self.limit == other.limit and
            self.min_batch == other.min_batch and
            self.max_batch == other.max_batch and
            self.recheck == other.recheck and
            self.seed == other.seed and
            self.max_retries == other.max_retries and
            self.concurrency == other.concurrency and
            self.imported_from == other.imported_from and
            self.name == other.name and
            self.written == other.written
        )
    def __init__(self, dataset, cases, selection, limit, min_batch, max_batch, recheck, seed, max_retries, concurrency, imported_from=attr_dict['imported_from'].default, name=attr_dict['name'].default, written=attr_dict['written'].default):
        _setattr = _cached_setattr_get(self)
        _setattr('dataset', dataset)
        _setattr('cases', __attr_converter_cases(cases))
        _setattr('selection', __attr_converter_selection(selection))
        _setattr('limit', limit)
        _setattr('min_batch', min_batch)
        _setattr('max_batch', max_batch)
        _setattr('recheck', recheck)
        _setattr('seed', seed)
        _setattr('max_retries', max_retries)
        _setattr('concurrency', concurrency)
        _setattr('imported_from', imported_from)
        _setattr('name', name)
        _setattr('written', __attr_converter_written(written))
    return locals()


def _65():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.number == other.number and
            self.size == other.size and
            self.why == other.why and
            self.kind == other.kind and
            self.new == other.new and
            self.recheck == other.recheck and
            self.unused_after == other.unused_after and
            self.open_difficult == other.open_difficult and
            self.size_override == other.size_override and
            self.recheck_override == other.recheck_override and
            self.seed_override == other.seed_override
        )
    def __init__(self, number, size, why, kind, new, recheck, unused_after=attr_dict['unused_after'].default, open_difficult=attr_dict['open_difficult'].default, size_override=attr_dict['size_override'].default, recheck_override=attr_dict['recheck_override'].default, seed_override=attr_dict['seed_override'].default):
        _setattr = _cached_setattr_get(self)
        _setattr('number', number)
        _setattr('size', size)
        _setattr('why', why)
        _setattr('kind', kind)
        _setattr('new', __attr_converter_new(new))
        _setattr('recheck', __attr_converter_recheck(recheck))
        _setattr('unused_after', unused_after)
        _setattr('open_difficult', open_difficult)
        _setattr('size_override', size_override)
        _setattr('recheck_override', recheck_override)
        _setattr('seed_override', seed_override)
    return locals()


def _66():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.run == other.run and
            self.batch == other.batch and
            self.kind == other.kind and
            self.number == other.number and
            self.cases == other.cases
        )
    def __init__(self, run, batch, kind, number, cases):
        _setattr = _cached_setattr_get(self)
        _setattr('run', run)
        _setattr('batch', batch)
        _setattr('kind', kind)
        _setattr('number', number)
        _setattr('cases', __attr_converter_cases(cases))
    return locals()


def _67():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.run == other.run and
            self.verdict == other.verdict and
            self.wrong == other.wrong and
            self.llm_calls == other.llm_calls and
            self.tokens == other.tokens and
            self.saved_twice == other.saved_twice and
            self.findings == other.findings and
            self.note == other.note
        )
    def __init__(self, run, verdict, wrong=attr_dict['wrong'].default, llm_calls=attr_dict['llm_calls'].default, tokens=attr_dict['tokens'].default, saved_twice=attr_dict['saved_twice'].default, findings=attr_dict['findings'].default, note=attr_dict['note'].default):
        _setattr = _cached_setattr_get(self)
        _setattr('run', run)
        _setattr('verdict', verdict)
        _setattr('wrong', __attr_converter_wrong(wrong))
        _setattr('llm_calls', llm_calls)
        _setattr('tokens', tokens)
        _setattr('saved_twice', saved_twice)
        _setattr('findings', findings)
        _setattr('note', note)
    return locals()


def _68():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.run == other.run and
            self.verdict == other.verdict and
            self.reason == other.reason and
            self.wrong == other.wrong and
            self.llm_calls == other.llm_calls and
            self.tokens == other.tokens and
            self.saved_twice == other.saved_twice
        )
    def __init__(self, run, verdict, reason, wrong=attr_dict['wrong'].default, llm_calls=attr_dict['llm_calls'].default, tokens=attr_dict['tokens'].default, saved_twice=attr_dict['saved_twice'].default):
        _setattr = _cached_setattr_get(self)
        _setattr('run', run)
        _setattr('verdict', verdict)
        _setattr('reason', reason)
        _setattr('wrong', __attr_converter_wrong(wrong))
        _setattr('llm_calls', llm_calls)
        _setattr('tokens', tokens)
        _setattr('saved_twice', saved_twice)
    return locals()


def _69():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.case == other.case and
            self.reasons == other.reasons and
            self.run == other.run and
            self.note == other.note
        )
    def __init__(self, case, reasons, run, note=attr_dict['note'].default):
        _setattr = _cached_setattr_get(self)
        _setattr('case', case)
        _setattr('reasons', __attr_converter_reasons(reasons))
        _setattr('run', run)
        _setattr('note', note)
    return locals()


def _70():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.case == other.case and
            self.run == other.run and
            self.note == other.note
        )
    def __init__(self, case, run, note=attr_dict['note'].default):
        _setattr = _cached_setattr_get(self)
        _setattr('case', case)
        _setattr('run', run)
        _setattr('note', note)
    return locals()


def _71():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.case == other.case and
            self.run == other.run and
            self.reason == other.reason
        )
    def __init__(self, case, run, reason):
        _setattr = _cached_setattr_get(self)
        _setattr('case', case)
        _setattr('run', run)
        _setattr('reason', reason)
    return locals()


def _72():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.run == other.run and
            self.file == other.file and
            self.summary == other.summary and
            self.lines == other.lines
        )
    def __init__(self, run, file, summary, lines=attr_dict['lines'].default):
        _setattr = _cached_setattr_get(self)
        _setattr('run', run)
        _setattr('file', file)
        _setattr('summary', summary)
        _setattr('lines', lines)
    return locals()


def _73():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.batch == other.batch and
            self.nodes == other.nodes
        )
    def __init__(self, batch, nodes):
        _setattr = _cached_setattr_get(self)
        _setattr('batch', batch)
        _setattr('nodes', nodes)
    return locals()


def _74():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.run == other.run and
            self.model == other.model and
            self.calls == other.calls and
            self.input_tokens == other.input_tokens and
            self.output_tokens == other.output_tokens
        )
    def __init__(self, run, model, calls, input_tokens, output_tokens):
        _setattr = _cached_setattr_get(self)
        _setattr('run', run)
        _setattr('model', model)
        _setattr('calls', calls)
        _setattr('input_tokens', input_tokens)
        _setattr('output_tokens', output_tokens)
    return locals()


def _75():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.folder == other.folder and
            self.log == other.log and
            self.events == other.events and
            self.unreadable == other.unreadable
        )
    def __init__(self, folder, log, events=attr_dict['events'].default, unreadable=attr_dict['unreadable'].default):
        _setattr = _cached_setattr_get(self)
        _setattr('folder', folder)
        _setattr('log', log)
        _setattr('events', __attr_converter_events(events))
        _setattr('unreadable', unreadable)
    return locals()


def _76():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.kind == other.kind and
            self.batch == other.batch and
            self.half == other.half and
            self.standing == other.standing
        )
    def __init__(self, kind, batch=attr_dict['batch'].default, half=attr_dict['half'].default, standing=attr_dict['standing'].default):
        _setattr = _cached_setattr_get(self)
        _setattr('kind', kind)
        _setattr('batch', batch)
        _setattr('half', half)
        _setattr('standing', standing)
    return locals()


def _77():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.folder == other.folder and
            self.log_options == other.log_options
        )
    def __init__(self, folder=attr_dict['folder'].default, log_options=attr_dict['log_options'].default):
        _setattr = _cached_setattr_get(self)
        _setattr('folder', folder)
        _setattr('log_options', log_options)
    return locals()


def _78():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.words == other.words and
            self.last == other.last
        )
    def __init__(self, words, last=attr_dict['last'].default):
        _setattr = _cached_setattr_get(self)
        _setattr('words', words)
        _setattr('last', last)
    return locals()


def _79():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.dataset == other.dataset and
            self.cases == other.cases and
            self.limit == other.limit and
            self.min_batch == other.min_batch and
            self.max_batch == other.max_batch and
            self.recheck == other.recheck and
            self.seed == other.seed and
            self.max_retries == other.max_retries and
            self.concurrency == other.concurrency and
            self.name == other.name and
            self.typed == other.typed
        )
    def __init__(self, dataset, cases, limit=attr_dict['limit'].default, min_batch=attr_dict['min_batch'].default, max_batch=attr_dict['max_batch'].default, recheck=attr_dict['recheck'].default, seed=attr_dict['seed'].default, max_retries=attr_dict['max_retries'].default, concurrency=attr_dict['concurrency'].default, name=attr_dict['name'].default, typed=attr_dict['typed'].default):
        _setattr = _cached_setattr_get(self)
        _setattr('dataset', dataset)
        _setattr('cases', __attr_converter_cases(cases))
        _setattr('limit', limit)
        _setattr('min_batch', min_batch)
        _setattr('max_batch', max_batch)
        _setattr('recheck', recheck)
        _setattr('seed', seed)
        _setattr('max_retries', max_retries)
        _setattr('concurrency', concurrency)
        _setattr('name', name)
        _setattr('typed', typed)
    return locals()


def _80():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.size == other.size and
            self.recheck == other.recheck and
            self.seed == other.seed and
            self.out == other.out
        )
    def __init__(self, size=attr_dict['size'].default, recheck=attr_dict['recheck'].default, seed=attr_dict['seed'].default, out=attr_dict['out'].default):
        _setattr = _cached_setattr_get(self)
        _setattr('size', size)
        _setattr('recheck', recheck)
        _setattr('seed', seed)
        _setattr('out', out)
    return locals()


def _81():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.batch == other.batch and
            self.kind == other.kind
        )
    def __init__(self, batch, kind):
        _setattr = _cached_setattr_get(self)
        _setattr('batch', batch)
        _setattr('kind', kind)
    return locals()


def _82():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return True
    def __init__(self, ):
        _setattr = _cached_setattr_get(self)
    return locals()


def _83():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.number == other.number and
            self.size == other.size and
            self.kind == other.kind
        )
    def __init__(self, number, size, kind):
        _setattr = _cached_setattr_get(self)
        _setattr('number', number)
        _setattr('size', size)
        _setattr('kind', kind)
    return locals()


def _84():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.sound == other.sound and
            self.summary == other.summary and
            self.problems == other.problems
        )
    def __init__(self, sound, summary, problems=attr_dict['problems'].default):
        _setattr = _cached_setattr_get(self)
        _setattr('sound', sound)
        _setattr('summary', summary)
        _setattr('problems', problems)
    return locals()


def _85():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.name == other.name and
            self.promise == other.promise and
            self.holds == other.holds and
            self.evidence == other.evidence
        )
    def __init__(self, name, promise, holds, evidence):
        _setattr = _cached_setattr_get(self)
        _setattr('name', name)
        _setattr('promise', promise)
        _setattr('holds', holds)
        _setattr('evidence', evidence)
    return locals()


def _86():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.first_at == other.first_at and
            self.last_at == other.last_at and
            self.duration == other.duration and
            self.events == other.events and
            self.batches == other.batches and
            self.runs == other.runs and
            self.verdicts == other.verdicts and
            self.llm_calls == other.llm_calls and
            self.tokens == other.tokens and
            self.without_usage == other.without_usage
        )
    def __init__(self, first_at, last_at, duration, events, batches, runs, verdicts, llm_calls, tokens, without_usage=attr_dict['without_usage'].default):
        _setattr = _cached_setattr_get(self)
        _setattr('first_at', first_at)
        _setattr('last_at', last_at)
        _setattr('duration', duration)
        _setattr('events', events)
        _setattr('batches', batches)
        _setattr('runs', runs)
        _setattr('verdicts', verdicts)
        _setattr('llm_calls', llm_calls)
        _setattr('tokens', tokens)
        _setattr('without_usage', without_usage)
    return locals()


def _87():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.checks == other.checks and
            self.timeline == other.timeline
        )
    def __init__(self, checks, timeline):
        _setattr = _cached_setattr_get(self)
        _setattr('checks', checks)
        _setattr('timeline', timeline)
    return locals()


def _88():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.calls == other.calls and
            self.input_tokens == other.input_tokens and
            self.output_tokens == other.output_tokens
        )
    def __init__(self, calls=attr_dict['calls'].default, input_tokens=attr_dict['input_tokens'].default, output_tokens=attr_dict['output_tokens'].default):
        _setattr = _cached_setattr_get(self)
        _setattr('calls', calls)
        _setattr('input_tokens', input_tokens)
        _setattr('output_tokens', output_tokens)
    return locals()


def _89():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.step == other.step and
            self.words == other.words and
            self.command == other.command and
            self.optional == other.optional
        )
    def __init__(self, step, words, command, optional=attr_dict['optional'].default):
        _setattr = _cached_setattr_get(self)
        _setattr('step', step)
        _setattr('words', words)
        _setattr('command', command)
        _setattr('optional', optional)
    return locals()


def _90():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.case == other.case and
            self.reasons == other.reasons and
            self.status == other.status and
            self.retries == other.retries and
            self.added == other.added and
            self.fixed == other.fixed and
            self.notes == other.notes
        )
    def __init__(self, case, reasons, status, retries, added, fixed, notes):
        _setattr = _cached_setattr_get(self)
        _setattr('case', case)
        _setattr('reasons', reasons)
        _setattr('status', status)
        _setattr('retries', retries)
        _setattr('added', added)
        _setattr('fixed', fixed)
        _setattr('notes', notes)
    return locals()


def _91():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.text == other.text and
            self.adopted == other.adopted and
            self.restored == other.restored
        )
    def __init__(self, text, adopted=attr_dict['adopted'].default, restored=attr_dict['restored'].default):
        _setattr = _cached_setattr_get(self)
        _setattr('text', text)
        _setattr('adopted', adopted)
        _setattr('restored', restored)
    return locals()


def _92():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.spans == other.spans and
            self.headings == other.headings
        )
    def __init__(self, spans, headings):
        _setattr = _cached_setattr_get(self)
        _setattr('spans', spans)
        _setattr('headings', headings)
    return locals()


def _93():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.name == other.name and
            self.selection == other.selection and
            self.cases_used == other.cases_used and
            self.batches_built == other.batches_built and
            self.batches_total == other.batches_total and
            self.difficult == other.difficult and
            self.difficult_counts == other.difficult_counts and
            self.verdicts == other.verdicts and
            self.runs == other.runs and
            self.tokens == other.tokens and
            self.calls == other.calls and
            self.reporting == other.reporting and
            self.step == other.step and
            self.closed == other.closed
        )
    def __init__(self, name, selection, cases_used, batches_built, batches_total, difficult, difficult_counts, verdicts, runs, tokens, calls, reporting, step, closed):
        _setattr = _cached_setattr_get(self)
        _setattr('name', name)
        _setattr('selection', selection)
        _setattr('cases_used', cases_used)
        _setattr('batches_built', batches_built)
        _setattr('batches_total', batches_total)
        _setattr('difficult', difficult)
        _setattr('difficult_counts', difficult_counts)
        _setattr('verdicts', verdicts)
        _setattr('runs', runs)
        _setattr('tokens', tokens)
        _setattr('calls', calls)
        _setattr('reporting', reporting)
        _setattr('step', step)
        _setattr('closed', closed)
    return locals()


def _94():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.name == other.name and
            self.cases == other.cases and
            self.verdict == other.verdict and
            self.plan == other.plan
        )
    def __init__(self, name, cases, verdict, plan):
        _setattr = _cached_setattr_get(self)
        _setattr('name', name)
        _setattr('cases', cases)
        _setattr('verdict', verdict)
        _setattr('plan', plan)
    return locals()


def _95():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.folder == other.folder and
            self.config == other.config and
            self.dataset == other.dataset and
            self.selection == other.selection and
            self.difficult == other.difficult and
            self.runs == other.runs
        )
    def __init__(self, folder, config, dataset, selection, difficult, runs):
        _setattr = _cached_setattr_get(self)
        _setattr('folder', folder)
        _setattr('config', config)
        _setattr('dataset', dataset)
        _setattr('selection', selection)
        _setattr('difficult', difficult)
        _setattr('runs', runs)
    return locals()


def _96():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.url == other.url and
            self.log == other.log
        )
    def __init__(self, url=attr_dict['url'].default, log=attr_dict['log'].default):
        _setattr = _cached_setattr_get(self)
        _setattr('url', url)
        _setattr('log', log)
    return locals()


def _97():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.state == other.state and
            self.newer == other.newer
        )
    def __init__(self, state, newer=attr_dict['newer'].default):
        _setattr = _cached_setattr_get(self)
        _setattr('state', state)
        _setattr('newer', newer)
    return locals()


def _98():
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return  (
            self.log == other.log and
            self.decider == other.decider and
            self.fields == other.fields and
            self.screen == other.screen and
            self.ended == other.ended and
            self.clock == other.clock
        )
    def __init__(self, log, decider, fields, screen, ended, clock=attr_dict['clock'].default):
        _setattr = _cached_setattr_get(self)
        _setattr('log', log)
        _setattr('decider', decider)
        _setattr('fields', fields)
        _setattr('screen', screen)
        _setattr('ended', ended)
        _setattr('clock', clock)
    return locals()


METHODS = {
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.scheme == other.scheme and\n        self.user == other.user and\n        self.password == other.password and\n        self.hosts == other.hosts and\n        self.path == other.path and\n        self.query == other.query\n    )\ndef __init__(self, scheme, user, password, hosts, path, query):\n    _setattr = _cached_setattr_get(self)\n    _setattr('scheme', scheme)\n    _setattr('user', user)\n    _setattr('password', password)\n    _setattr('hosts', hosts)\n    _setattr('path', path)\n    _setattr('query', query)\n": _0,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.store == other.store and\n        self.shown == other.shown and\n        self.path == other.path and\n        self.name == other.name and\n        self.dsn == other.dsn\n    )\ndef __init__(self, store, shown, path=attr_dict['path'].default, name=attr_dict['name'].default, dsn=attr_dict['dsn'].default):\n    _setattr = _cached_setattr_get(self)\n    _setattr('store', store)\n    _setattr('shown', shown)\n    _setattr('path', path)\n    _setattr('name', name)\n    _setattr('dsn', dsn)\n": _1,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.seq == other.seq and\n        self.type == other.type and\n        self.v == other.v and\n        self.at == other.at and\n        self.id == other.id and\n        self.data == other.data\n    )\ndef __init__(self, seq, type, v, at, id, data):\n    _setattr = _cached_setattr_get(self)\n    _setattr('seq', seq)\n    _setattr('type', type)\n    _setattr('v', v)\n    _setattr('at', at)\n    _setattr('id', id)\n    _setattr('data', data)\n": _2,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.modules == other.modules\n    )\ndef __init__(self, modules):\n    _setattr = _cached_setattr_get(self)\n    _setattr('modules', modules)\n": _3,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.name == other.name and\n        self.version == other.version and\n        self.cls == other.cls and\n        self.upcasters == other.upcasters and\n        self.decode == other.decode and\n        self.encode == other.encode\n    )\ndef __init__(self, name, version, cls=attr_dict['cls'].default, upcasters=attr_dict['upcasters'].default, decode=attr_dict['decode'].default, encode=attr_dict['encode'].default):\n    _setattr = _cached_setattr_get(self)\n    _setattr('name', name)\n    _setattr('version', version)\n    _setattr('cls', cls)\n    _setattr('upcasters', upcasters)\n    _setattr('decode', decode)\n    _setattr('encode', encode)\n    self.__attrs_post_init__()\n": _4,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.type == other.type and\n        self.data == other.data\n    )\ndef __init__(self, type, data=NOTHING):\n    _setattr = _cached_setattr_get(self)\n    _setattr('type', type)\n    if data is not NOTHING:\n        _setattr('data', data)\n    else:\n        _setattr('data', __attr_factory_data())\n": _5,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.line == other.line and\n        self.code == other.code and\n        self.message == other.message and\n        self.seq == other.seq\n    )\ndef __init__(self, line, code, message, seq=attr_dict['seq'].default):\n    _setattr = _cached_setattr_get(self)\n    _setattr('line', line)\n    _setattr('code', code)\n    _setattr('message', message)\n    _setattr('seq', seq)\n": _6,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.line == other.line and\n        self.seq == other.seq and\n        self.offset == other.offset and\n        self.hash == other.hash and\n        self.at == other.at\n    )\ndef __init__(self, line=attr_dict['line'].default, seq=attr_dict['seq'].default, offset=attr_dict['offset'].default, hash=attr_dict['hash'].default, at=attr_dict['at'].default):\n    _setattr = _cached_setattr_get(self)\n    _setattr('line', line)\n    _setattr('seq', seq)\n    _setattr('offset', offset)\n    _setattr('hash', hash)\n    _setattr('at', at)\n": _7,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.start == other.start and\n        self.ignored == other.ignored and\n        self.bytes == other.bytes and\n        self.lines == other.lines\n    )\ndef __init__(self, start=attr_dict['start'].default, ignored=attr_dict['ignored'].default, bytes=attr_dict['bytes'].default, lines=attr_dict['lines'].default):\n    _setattr = _cached_setattr_get(self)\n    _setattr('start', start)\n    _setattr('ignored', ignored)\n    _setattr('bytes', bytes)\n    _setattr('lines', lines)\n": _8,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.number == other.number and\n        self.state == other.state and\n        self.end == other.end and\n        self.length == other.length and\n        self.before == other.before and\n        self.digest == other.digest\n    )\ndef __init__(self, number, state, end=attr_dict['end'].default, length=attr_dict['length'].default, before=attr_dict['before'].default, digest=attr_dict['digest'].default):\n    _setattr = _cached_setattr_get(self)\n    _setattr('number', number)\n    _setattr('state', state)\n    _setattr('end', end)\n    _setattr('length', length)\n    _setattr('before', before)\n    _setattr('digest', digest)\n": _9,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.size == other.size and\n        self.complete == other.complete and\n        self.marker == other.marker and\n        self.tail == other.tail\n    )\ndef __init__(self, size, complete, marker, tail):\n    _setattr = _cached_setattr_get(self)\n    _setattr('size', size)\n    _setattr('complete', complete)\n    _setattr('marker', marker)\n    _setattr('tail', tail)\n": _10,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.name == other.name and\n        self.initial == other.initial and\n        self.evolve == other.evolve and\n        self.version == other.version and\n        self.state_type == other.state_type and\n        self.folds == other.folds and\n        self.evolve_all == other.evolve_all\n    )\ndef __init__(self, name, initial, evolve, version=attr_dict['version'].default, state_type=attr_dict['state_type'].default, folds=attr_dict['folds'].default, evolve_all=attr_dict['evolve_all'].default):\n    _setattr = _cached_setattr_get(self)\n    _setattr('name', name)\n    _setattr('initial', initial)\n    _setattr('evolve', evolve)\n    _setattr('version', version)\n    _setattr('state_type', state_type)\n    _setattr('folds', folds)\n    _setattr('evolve_all', evolve_all)\n": _11,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.state == other.state and\n        self.position == other.position and\n        self.bad == other.bad and\n        self.newer == other.newer and\n        self.torn == other.torn and\n        self.end == other.end and\n        self.first_bad == other.first_bad and\n        self.marker == other.marker\n    )\ndef __init__(self, state, position, bad, newer, torn, end, first_bad=attr_dict['first_bad'].default, marker=attr_dict['marker'].default):\n    _setattr = _cached_setattr_get(self)\n    _setattr('state', state)\n    _setattr('position', position)\n    _setattr('bad', bad)\n    _setattr('newer', newer)\n    _setattr('torn', torn)\n    _setattr('end', end)\n    _setattr('first_bad', first_bad)\n    _setattr('marker', marker)\n": _12,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.events == other.events and\n        self.state == other.state and\n        self.before == other.before\n    )\ndef __init__(self, events, state, before):\n    _setattr = _cached_setattr_get(self)\n    _setattr('events', events)\n    _setattr('state', state)\n    _setattr('before', before)\n": _13,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.projection == other.projection and\n        self.token == other.token and\n        self.last_line_start == other.last_line_start and\n        self.replayed == other.replayed\n    )\ndef __init__(self, projection, token, last_line_start, replayed):\n    _setattr = _cached_setattr_get(self)\n    _setattr('projection', projection)\n    _setattr('token', token)\n    _setattr('last_line_start', last_line_start)\n    _setattr('replayed', replayed)\n": _14,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.seq == other.seq and\n        self.digested == other.digested and\n        self.digest == other.digest\n    )\ndef __init__(self, seq, digested, digest):\n    _setattr = _cached_setattr_get(self)\n    _setattr('seq', seq)\n    _setattr('digested', digested)\n    _setattr('digest', digest)\n": _15,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.state == other.state and\n        self.events == other.events and\n        self.position == other.position and\n        self.note == other.note and\n        self.newer == other.newer\n    )\ndef __init__(self, state, events, position, note=attr_dict['note'].default, newer=attr_dict['newer'].default):\n    _setattr = _cached_setattr_get(self)\n    _setattr('state', state)\n    _setattr('events', events)\n    _setattr('position', position)\n    _setattr('note', note)\n    _setattr('newer', newer)\n": _16,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.seq == other.seq and\n        self.hash == other.hash and\n        self.at == other.at\n    )\ndef __init__(self, seq, hash, at):\n    _setattr = _cached_setattr_get(self)\n    _setattr('seq', seq)\n    _setattr('hash', hash)\n    _setattr('at', at)\n": _17,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.path == other.path and\n        self.lines == other.lines and\n        self.events == other.events and\n        self.first_at == other.first_at and\n        self.last_at == other.last_at and\n        self.last_seq == other.last_seq and\n        self.torn_bytes == other.torn_bytes and\n        self.problems == other.problems and\n        self.unfinished == other.unfinished and\n        self.end == other.end and\n        self.last_hash == other.last_hash\n    )\ndef __init__(self, path, lines, events, first_at, last_at, last_seq, torn_bytes, problems, unfinished=attr_dict['unfinished'].default, end=attr_dict['end'].default, last_hash=attr_dict['last_hash'].default):\n    _setattr = _cached_setattr_get(self)\n    _setattr('path', path)\n    _setattr('lines', lines)\n    _setattr('events', events)\n    _setattr('first_at', first_at)\n    _setattr('last_at', last_at)\n    _setattr('last_seq', last_seq)\n    _setattr('torn_bytes', torn_bytes)\n    _setattr('problems', problems)\n    _setattr('unfinished', unfinished)\n    _setattr('end', end)\n    _setattr('last_hash', last_hash)\n": _18,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.source == other.source and\n        self.destination == other.destination and\n        self.events == other.events and\n        self.bytes == other.bytes and\n        self.last_seq == other.last_seq and\n        self.last_hash == other.last_hash and\n        self.sha256 == other.sha256\n    )\ndef __init__(self, source, destination, events, bytes, last_seq, last_hash, sha256):\n    _setattr = _cached_setattr_get(self)\n    _setattr('source', source)\n    _setattr('destination', destination)\n    _setattr('events', events)\n    _setattr('bytes', bytes)\n    _setattr('last_seq', last_seq)\n    _setattr('last_hash', last_hash)\n    _setattr('sha256', sha256)\n": _19,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.path == other.path and\n        self.kept_through_seq == other.kept_through_seq and\n        self.dropped_lines == other.dropped_lines and\n        self.dropped_bytes == other.dropped_bytes and\n        self.reason == other.reason and\n        self.damaged_copy == other.damaged_copy and\n        self.event_seq == other.event_seq\n    )\ndef __init__(self, path, kept_through_seq, dropped_lines, dropped_bytes, reason, damaged_copy, event_seq):\n    _setattr = _cached_setattr_get(self)\n    _setattr('path', path)\n    _setattr('kept_through_seq', kept_through_seq)\n    _setattr('dropped_lines', dropped_lines)\n    _setattr('dropped_bytes', dropped_bytes)\n    _setattr('reason', reason)\n    _setattr('damaged_copy', damaged_copy)\n    _setattr('event_seq', event_seq)\n": _20,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.kept == other.kept and\n        self.kept_bytes == other.kept_bytes and\n        self.last_hash == other.last_hash and\n        self.lines == other.lines and\n        self.bytes == other.bytes and\n        self.dropped_types == other.dropped_types\n    )\ndef __init__(self, kept, kept_bytes, last_hash, lines, bytes, dropped_types):\n    _setattr = _cached_setattr_get(self)\n    _setattr('kept', kept)\n    _setattr('kept_bytes', kept_bytes)\n    _setattr('last_hash', last_hash)\n    _setattr('lines', lines)\n    _setattr('bytes', bytes)\n    _setattr('dropped_types', dropped_types)\n": _21,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.path == other.path and\n        self.agrees == other.agrees and\n        self.message == other.message\n    )\ndef __init__(self, path, agrees, message):\n    _setattr = _cached_setattr_get(self)\n    _setattr('path', path)\n    _setattr('agrees', agrees)\n    _setattr('message', message)\n": _22,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.name == other.name and\n        self.initial == other.initial and\n        self.evolve == other.evolve and\n        self.version == other.version and\n        self.state_type == other.state_type and\n        self.folds == other.folds and\n        self.evolve_all == other.evolve_all and\n        self.decide == other.decide and\n        self.registry == other.registry and\n        self.wrong_log == other.wrong_log and\n        self.events == other.events and\n        self.views == other.views\n    )\ndef __init__(self, name, initial, evolve, version=attr_dict['version'].default, state_type=attr_dict['state_type'].default, folds=attr_dict['folds'].default, evolve_all=attr_dict['evolve_all'].default, *, decide, registry, wrong_log, events=attr_dict['events'].default, views=attr_dict['views'].default):\n    _setattr = _cached_setattr_get(self)\n    _setattr('name', name)\n    _setattr('initial', initial)\n    _setattr('evolve', evolve)\n    _setattr('version', version)\n    _setattr('state_type', state_type)\n    _setattr('folds', folds)\n    _setattr('evolve_all', evolve_all)\n    _setattr('decide', decide)\n    _setattr('registry', registry)\n    _setattr('wrong_log', wrong_log)\n    _setattr('events', events)\n    _setattr('views', views)\n": _23,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.batch == other.batch and\n        self.target == other.target and\n        self.language_hint == other.language_hint and\n        self.scope_hint == other.scope_hint\n    )\ndef __init__(self, batch, target, language_hint=attr_dict['language_hint'].default, scope_hint=attr_dict['scope_hint'].default):\n    _setattr = _cached_setattr_get(self)\n    _setattr('batch', batch)\n    _setattr('target', target)\n    _setattr('language_hint', language_hint)\n    _setattr('scope_hint', scope_hint)\n": _24,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.kind == other.kind and\n        self.path == other.path and\n        self.payload == other.payload\n    )\ndef __init__(self, kind, path, payload):\n    _setattr = _cached_setattr_get(self)\n    _setattr('kind', kind)\n    _setattr('path', path)\n    _setattr('payload', payload)\n": _25,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.message == other.message and\n        self.path == other.path\n    )\ndef __init__(self, message, path):\n    _setattr = _cached_setattr_get(self)\n    _setattr('message', message)\n    _setattr('path', path)\n": _26,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.halt_reason == other.halt_reason and\n        self.message == other.message and\n        self.name == other.name\n    )\ndef __init__(self, halt_reason=attr_dict['halt_reason'].default, message=attr_dict['message'].default, name=attr_dict['name'].default):\n    _setattr = _cached_setattr_get(self)\n    _setattr('halt_reason', halt_reason)\n    _setattr('message', message)\n    _setattr('name', name)\n": _27,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.run_dir == other.run_dir and\n        self.input_file == other.input_file and\n        self.targets == other.targets and\n        self.fail_fast == other.fail_fast and\n        self.started_at == other.started_at and\n        self.exit_codes == other.exit_codes and\n        self.input_from_run_dir == other.input_from_run_dir\n    )\ndef __init__(self, run_dir, input_file, targets, fail_fast, started_at, exit_codes=attr_dict['exit_codes'].default, input_from_run_dir=attr_dict['input_from_run_dir'].default):\n    _setattr = _cached_setattr_get(self)\n    _setattr('run_dir', run_dir)\n    _setattr('input_file', input_file)\n    _setattr('targets', targets)\n    _setattr('fail_fast', fail_fast)\n    _setattr('started_at', started_at)\n    _setattr('exit_codes', exit_codes)\n    _setattr('input_from_run_dir', input_from_run_dir)\n": _28,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.batch_dir == other.batch_dir and\n        self.briefs == other.briefs and\n        self.checks == other.checks and\n        self.fail_fast == other.fail_fast and\n        self.started_at == other.started_at and\n        self.batch_id == other.batch_id and\n        self.exit_codes == other.exit_codes\n    )\ndef __init__(self, batch_dir, briefs, checks, fail_fast, started_at, batch_id, exit_codes=attr_dict['exit_codes'].default):\n    _setattr = _cached_setattr_get(self)\n    _setattr('batch_dir', batch_dir)\n    _setattr('briefs', briefs)\n    _setattr('checks', checks)\n    _setattr('fail_fast', fail_fast)\n    _setattr('started_at', started_at)\n    _setattr('batch_id', batch_id)\n    _setattr('exit_codes', exit_codes)\n": _29,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.run_dir == other.run_dir and\n        self.batch == other.batch and\n        self.staged == other.staged\n    )\ndef __init__(self, run_dir, batch, staged):\n    _setattr = _cached_setattr_get(self)\n    _setattr('run_dir', run_dir)\n    _setattr('batch', batch)\n    _setattr('staged', staged)\n": _30,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.run_dir == other.run_dir and\n        self.number == other.number and\n        self.staged == other.staged and\n        self.exit_codes == other.exit_codes\n    )\ndef __init__(self, run_dir, number, staged, exit_codes=attr_dict['exit_codes'].default):\n    _setattr = _cached_setattr_get(self)\n    _setattr('run_dir', run_dir)\n    _setattr('number', number)\n    _setattr('staged', staged)\n    _setattr('exit_codes', exit_codes)\n": _31,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.run_dir == other.run_dir and\n        self.output_dir == other.output_dir and\n        self.output_inside == other.output_inside and\n        self.timestamp == other.timestamp\n    )\ndef __init__(self, run_dir, output_dir, output_inside, timestamp):\n    _setattr = _cached_setattr_get(self)\n    _setattr('run_dir', run_dir)\n    _setattr('output_dir', output_dir)\n    _setattr('output_inside', output_inside)\n    _setattr('timestamp', timestamp)\n": _32,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.run_dir == other.run_dir and\n        self.summary_path == other.summary_path and\n        self.warnings == other.warnings\n    )\ndef __init__(self, run_dir, summary_path, warnings=attr_dict['warnings'].default):\n    _setattr = _cached_setattr_get(self)\n    _setattr('run_dir', run_dir)\n    _setattr('summary_path', summary_path)\n    _setattr('warnings', __attr_converter_warnings(warnings))\n": _33,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.log == other.log and\n        self.events == other.events\n    )\ndef __init__(self, log, events):\n    _setattr = _cached_setattr_get(self)\n    _setattr('log', log)\n    _setattr('events', __attr_converter_events(events))\n": _34,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.run_dir == other.run_dir and\n        self.keep_prefix == other.keep_prefix\n    )\ndef __init__(self, run_dir, keep_prefix):\n    _setattr = _cached_setattr_get(self)\n    _setattr('run_dir', run_dir)\n    _setattr('keep_prefix', keep_prefix)\n": _35,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.folder == other.folder\n    )\ndef __init__(self, folder):\n    _setattr = _cached_setattr_get(self)\n    _setattr('folder', folder)\n": _36,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.output_dir == other.output_dir and\n        self.stem == other.stem and\n        self.stamp == other.stamp and\n        self.record == other.record\n    )\ndef __init__(self, output_dir, stem, stamp, record):\n    _setattr = _cached_setattr_get(self)\n    _setattr('output_dir', output_dir)\n    _setattr('stem', stem)\n    _setattr('stamp', stamp)\n    _setattr('record', record)\n": _37,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.run_dir == other.run_dir and\n        self.summary_path == other.summary_path\n    )\ndef __init__(self, run_dir, summary_path):\n    _setattr = _cached_setattr_get(self)\n    _setattr('run_dir', run_dir)\n    _setattr('summary_path', summary_path)\n": _38,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.events == other.events and\n        self.effects == other.effects and\n        self.answer == other.answer\n    )\ndef __init__(self, events=attr_dict['events'].default, effects=attr_dict['effects'].default, answer=attr_dict['answer'].default):\n    _setattr = _cached_setattr_get(self)\n    _setattr('events', events)\n    _setattr('effects', effects)\n    _setattr('answer', answer)\n": _39,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.workflow == other.workflow and\n        self.input_file == other.input_file and\n        self.input_briefs == other.input_briefs and\n        self.fail_fast == other.fail_fast and\n        self.started_at == other.started_at and\n        self.batch_id == other.batch_id and\n        self.targets == other.targets and\n        self.exit_codes == other.exit_codes\n    )\ndef __init__(self, workflow, input_file, input_briefs, fail_fast, started_at, batch_id=attr_dict['batch_id'].default, targets=attr_dict['targets'].default, exit_codes=attr_dict['exit_codes'].default):\n    _setattr = _cached_setattr_get(self)\n    _setattr('workflow', workflow)\n    _setattr('input_file', input_file)\n    _setattr('input_briefs', __attr_converter_input_briefs(input_briefs))\n    _setattr('fail_fast', fail_fast)\n    _setattr('started_at', started_at)\n    _setattr('batch_id', batch_id)\n    _setattr('targets', __attr_converter_targets(targets))\n    _setattr('exit_codes', exit_codes)\n": _40,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.batch == other.batch and\n        self.target == other.target\n    )\ndef __init__(self, batch, target):\n    _setattr = _cached_setattr_get(self)\n    _setattr('batch', batch)\n    _setattr('target', target)\n": _41,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.batch == other.batch and\n        self.target == other.target and\n        self.status == other.status and\n        self.exit_code == other.exit_code and\n        self.skill_package == other.skill_package and\n        self.error_code == other.error_code and\n        self.quality_score == other.quality_score and\n        self.error_code_json == other.error_code_json\n    )\ndef __init__(self, batch, target, status, exit_code, skill_package=attr_dict['skill_package'].default, error_code=attr_dict['error_code'].default, quality_score=attr_dict['quality_score'].default, error_code_json=attr_dict['error_code_json'].default):\n    _setattr = _cached_setattr_get(self)\n    _setattr('batch', batch)\n    _setattr('target', target)\n    _setattr('status', status)\n    _setattr('exit_code', exit_code)\n    _setattr('skill_package', skill_package)\n    _setattr('error_code', error_code)\n    _setattr('quality_score', quality_score)\n    _setattr('error_code_json', error_code_json)\n": _42,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.batch == other.batch and\n        self.target == other.target and\n        self.error_code == other.error_code and\n        self.exit_code == other.exit_code and\n        self.message == other.message\n    )\ndef __init__(self, batch, target, error_code, exit_code, message):\n    _setattr = _cached_setattr_get(self)\n    _setattr('batch', batch)\n    _setattr('target', target)\n    _setattr('error_code', error_code)\n    _setattr('exit_code', exit_code)\n    _setattr('message', message)\n": _43,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.status == other.status and\n        self.timestamp == other.timestamp and\n        self.targets_total == other.targets_total and\n        self.succeeded == other.succeeded and\n        self.failed == other.failed and\n        self.fail_fast_triggered == other.fail_fast_triggered and\n        self.exit_code == other.exit_code and\n        self.summary_path == other.summary_path and\n        self.warnings == other.warnings and\n        self.output_dir == other.output_dir and\n        self.output_inside == other.output_inside\n    )\ndef __init__(self, status, timestamp, targets_total, succeeded, failed, fail_fast_triggered, exit_code, summary_path, warnings=attr_dict['warnings'].default, output_dir=attr_dict['output_dir'].default, output_inside=attr_dict['output_inside'].default):\n    _setattr = _cached_setattr_get(self)\n    _setattr('status', status)\n    _setattr('timestamp', timestamp)\n    _setattr('targets_total', targets_total)\n    _setattr('succeeded', succeeded)\n    _setattr('failed', failed)\n    _setattr('fail_fast_triggered', fail_fast_triggered)\n    _setattr('exit_code', exit_code)\n    _setattr('summary_path', summary_path)\n    _setattr('warnings', __attr_converter_warnings(warnings))\n    _setattr('output_dir', output_dir)\n    _setattr('output_inside', output_inside)\n": _44,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.summary_path == other.summary_path and\n        self.warnings == other.warnings\n    )\ndef __init__(self, summary_path, warnings=attr_dict['warnings'].default):\n    _setattr = _cached_setattr_get(self)\n    _setattr('summary_path', summary_path)\n    _setattr('warnings', __attr_converter_warnings(warnings))\n": _45,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.started == other.started and\n        self.results == other.results and\n        self.handed_out == other.handed_out and\n        self.recorded_at == other.recorded_at and\n        self.summary == other.summary and\n        self.summarized_at == other.summarized_at and\n        self.summarized_results == other.summarized_results and\n        self.summary_written == other.summary_written and\n        self.foreign == other.foreign\n    )\ndef __init__(self, started=attr_dict['started'].default, results=NOTHING, handed_out=NOTHING, recorded_at=NOTHING, summary=attr_dict['summary'].default, summarized_at=attr_dict['summarized_at'].default, summarized_results=attr_dict['summarized_results'].default, summary_written=attr_dict['summary_written'].default, foreign=attr_dict['foreign'].default):\n    _setattr = _cached_setattr_get(self)\n    _setattr('started', started)\n    if results is not NOTHING:\n        _setattr('results', results)\n    else:\n        _setattr('results', __attr_factory_results())\n    if handed_out is not NOTHING:\n        _setattr('handed_out', handed_out)\n    else:\n        _setattr('handed_out', __attr_factory_handed_out())\n    if recorded_at is not NOTHING:\n        _setattr('recorded_at', recorded_at)\n    else:\n        _setattr('recorded_at', __attr_factory_recorded_at())\n    _setattr('summary', summary)\n    _setattr('summarized_at', summarized_at)\n    _setattr('summarized_results', summarized_results)\n    _setattr('summary_written', summary_written)\n    _setattr('foreign', foreign)\n": _46,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.run_dir == other.run_dir and\n        self.workflow == other.workflow and\n        self.source == other.source and\n        self.total == other.total and\n        self.done == other.done and\n        self.failed == other.failed and\n        self.in_progress == other.in_progress and\n        self.pending == other.pending and\n        self.current == other.current and\n        self.current_seconds == other.current_seconds and\n        self.elapsed == other.elapsed and\n        self.left == other.left and\n        self.per_target == other.per_target and\n        self.last == other.last and\n        self.summarized == other.summarized\n    )\ndef __init__(self, run_dir, workflow, source, total, done, failed, in_progress, pending, current, current_seconds, elapsed, left, per_target, last, summarized):\n    _setattr = _cached_setattr_get(self)\n    _setattr('run_dir', run_dir)\n    _setattr('workflow', workflow)\n    _setattr('source', source)\n    _setattr('total', total)\n    _setattr('done', done)\n    _setattr('failed', failed)\n    _setattr('in_progress', in_progress)\n    _setattr('pending', pending)\n    _setattr('current', current)\n    _setattr('current_seconds', current_seconds)\n    _setattr('elapsed', elapsed)\n    _setattr('left', left)\n    _setattr('per_target', per_target)\n    _setattr('last', last)\n    _setattr('summarized', summarized)\n": _47,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.dataset == other.dataset and\n        self.limit == other.limit and\n        self.min_batch == other.min_batch and\n        self.max_batch == other.max_batch and\n        self.recheck == other.recheck and\n        self.seed == other.seed and\n        self.max_retries == other.max_retries and\n        self.concurrency == other.concurrency and\n        self.imported_from == other.imported_from and\n        self.name == other.name\n    )\ndef __init__(self, dataset, limit, min_batch, max_batch, recheck, seed, max_retries, concurrency, imported_from=attr_dict['imported_from'].default, name=attr_dict['name'].default):\n    _setattr = _cached_setattr_get(self)\n    _setattr('dataset', dataset)\n    _setattr('limit', limit)\n    _setattr('min_batch', min_batch)\n    _setattr('max_batch', max_batch)\n    _setattr('recheck', recheck)\n    _setattr('seed', seed)\n    _setattr('max_retries', max_retries)\n    _setattr('concurrency', concurrency)\n    _setattr('imported_from', imported_from)\n    _setattr('name', name)\n": _48,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.id == other.id and\n        self.class_name == other.class_name and\n        self.complexity == other.complexity and\n        self.rubric == other.rubric and\n        self.body == other.body\n    )\ndef __init__(self, id, class_name, complexity, rubric, body):\n    _setattr = _cached_setattr_get(self)\n    _setattr('id', id)\n    _setattr('class_name', class_name)\n    _setattr('complexity', complexity)\n    _setattr('rubric', rubric)\n    _setattr('body', body)\n": _49,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.number == other.number and\n        self.size == other.size and\n        self.why == other.why and\n        self.kind == other.kind and\n        self.new == other.new and\n        self.recheck == other.recheck and\n        self.unused_after == other.unused_after and\n        self.open_difficult == other.open_difficult and\n        self.size_override == other.size_override and\n        self.recheck_override == other.recheck_override and\n        self.seed_override == other.seed_override and\n        self.built_seq == other.built_seq and\n        self.built_at == other.built_at\n    )\ndef __init__(self, number, size, why, kind, new, recheck, unused_after, open_difficult, size_override, recheck_override, seed_override, built_seq, built_at):\n    _setattr = _cached_setattr_get(self)\n    _setattr('number', number)\n    _setattr('size', size)\n    _setattr('why', why)\n    _setattr('kind', kind)\n    _setattr('new', new)\n    _setattr('recheck', recheck)\n    _setattr('unused_after', unused_after)\n    _setattr('open_difficult', open_difficult)\n    _setattr('size_override', size_override)\n    _setattr('recheck_override', recheck_override)\n    _setattr('seed_override', seed_override)\n    _setattr('built_seq', built_seq)\n    _setattr('built_at', built_at)\n": _50,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.file == other.file and\n        self.summary == other.summary and\n        self.lines == other.lines and\n        self.seq == other.seq\n    )\ndef __init__(self, file, summary, lines, seq):\n    _setattr = _cached_setattr_get(self)\n    _setattr('file', file)\n    _setattr('summary', summary)\n    _setattr('lines', lines)\n    _setattr('seq', seq)\n": _51,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.model == other.model and\n        self.calls == other.calls and\n        self.input_tokens == other.input_tokens and\n        self.output_tokens == other.output_tokens and\n        self.reports == other.reports\n    )\ndef __init__(self, model, calls, input_tokens, output_tokens, reports):\n    _setattr = _cached_setattr_get(self)\n    _setattr('model', model)\n    _setattr('calls', calls)\n    _setattr('input_tokens', input_tokens)\n    _setattr('output_tokens', output_tokens)\n    _setattr('reports', reports)\n": _52,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.name == other.name and\n        self.batch == other.batch and\n        self.kind == other.kind and\n        self.number == other.number and\n        self.cases == other.cases and\n        self.started_seq == other.started_seq and\n        self.started_at == other.started_at and\n        self.verdict == other.verdict and\n        self.wrong == other.wrong and\n        self.llm_calls == other.llm_calls and\n        self.tokens == other.tokens and\n        self.saved_twice == other.saved_twice and\n        self.findings == other.findings and\n        self.note == other.note and\n        self.graded_seq == other.graded_seq and\n        self.graded_at == other.graded_at and\n        self.verdict_seq == other.verdict_seq and\n        self.changes == other.changes and\n        self.usage == other.usage\n    )\ndef __init__(self, name, batch, kind, number, cases, started_seq, started_at, verdict=attr_dict['verdict'].default, wrong=attr_dict['wrong'].default, llm_calls=attr_dict['llm_calls'].default, tokens=attr_dict['tokens'].default, saved_twice=attr_dict['saved_twice'].default, findings=attr_dict['findings'].default, note=attr_dict['note'].default, graded_seq=attr_dict['graded_seq'].default, graded_at=attr_dict['graded_at'].default, verdict_seq=attr_dict['verdict_seq'].default, changes=attr_dict['changes'].default, usage=attr_dict['usage'].default):\n    _setattr = _cached_setattr_get(self)\n    _setattr('name', name)\n    _setattr('batch', batch)\n    _setattr('kind', kind)\n    _setattr('number', number)\n    _setattr('cases', cases)\n    _setattr('started_seq', started_seq)\n    _setattr('started_at', started_at)\n    _setattr('verdict', verdict)\n    _setattr('wrong', wrong)\n    _setattr('llm_calls', llm_calls)\n    _setattr('tokens', tokens)\n    _setattr('saved_twice', saved_twice)\n    _setattr('findings', findings)\n    _setattr('note', note)\n    _setattr('graded_seq', graded_seq)\n    _setattr('graded_at', graded_at)\n    _setattr('verdict_seq', verdict_seq)\n    _setattr('changes', changes)\n    _setattr('usage', usage)\n": _53,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.run == other.run and\n        self.text == other.text\n    )\ndef __init__(self, run, text):\n    _setattr = _cached_setattr_get(self)\n    _setattr('run', run)\n    _setattr('text', text)\n": _54,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.case == other.case and\n        self.reasons == other.reasons and\n        self.added == other.added and\n        self.added_seq == other.added_seq and\n        self.fixed == other.fixed and\n        self.fixed_seq == other.fixed_seq and\n        self.notes == other.notes and\n        self.withdrawn == other.withdrawn and\n        self.withdrawn_seq == other.withdrawn_seq\n    )\ndef __init__(self, case, reasons, added, added_seq, fixed=attr_dict['fixed'].default, fixed_seq=attr_dict['fixed_seq'].default, notes=attr_dict['notes'].default, withdrawn=attr_dict['withdrawn'].default, withdrawn_seq=attr_dict['withdrawn_seq'].default):\n    _setattr = _cached_setattr_get(self)\n    _setattr('case', case)\n    _setattr('reasons', reasons)\n    _setattr('added', added)\n    _setattr('added_seq', added_seq)\n    _setattr('fixed', fixed)\n    _setattr('fixed_seq', fixed_seq)\n    _setattr('notes', notes)\n    _setattr('withdrawn', withdrawn)\n    _setattr('withdrawn_seq', withdrawn_seq)\n": _55,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.batch == other.batch and\n        self.nodes == other.nodes and\n        self.seq == other.seq and\n        self.at == other.at\n    )\ndef __init__(self, batch, nodes, seq, at):\n    _setattr = _cached_setattr_get(self)\n    _setattr('batch', batch)\n    _setattr('nodes', nodes)\n    _setattr('seq', seq)\n    _setattr('at', at)\n": _56,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.run == other.run and\n        self.was == other.was and\n        self.verdict == other.verdict and\n        self.reason == other.reason and\n        self.seq == other.seq and\n        self.at == other.at\n    )\ndef __init__(self, run, was, verdict, reason, seq, at):\n    _setattr = _cached_setattr_get(self)\n    _setattr('run', run)\n    _setattr('was', was)\n    _setattr('verdict', verdict)\n    _setattr('reason', reason)\n    _setattr('seq', seq)\n    _setattr('at', at)\n": _57,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.settings == other.settings and\n        self.cases == other.cases and\n        self.selection == other.selection and\n        self.batches == other.batches and\n        self.runs == other.runs and\n        self.difficult == other.difficult and\n        self.memories == other.memories and\n        self.corrections == other.corrections and\n        self.foreign == other.foreign\n    )\ndef __init__(self, settings=attr_dict['settings'].default, cases=attr_dict['cases'].default, selection=attr_dict['selection'].default, batches=attr_dict['batches'].default, runs=attr_dict['runs'].default, difficult=attr_dict['difficult'].default, memories=attr_dict['memories'].default, corrections=attr_dict['corrections'].default, foreign=attr_dict['foreign'].default):\n    _setattr = _cached_setattr_get(self)\n    _setattr('settings', settings)\n    _setattr('cases', cases)\n    _setattr('selection', selection)\n    _setattr('batches', batches)\n    _setattr('runs', runs)\n    _setattr('difficult', difficult)\n    _setattr('memories', memories)\n    _setattr('corrections', corrections)\n    _setattr('foreign', foreign)\n    _setattr('_run_index', attr_dict['_run_index'].default)\n": _58,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.id == other.id and\n        self.reasons == other.reasons and\n        self.added == other.added and\n        self.fixed == other.fixed\n    )\ndef __init__(self, id, reasons, added, fixed=attr_dict['fixed'].default):\n    _setattr = _cached_setattr_get(self)\n    _setattr('id', id)\n    _setattr('reasons', __attr_converter_reasons(reasons))\n    _setattr('added', added)\n    _setattr('fixed', fixed)\n": _59,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.min_batch == other.min_batch and\n        self.max_batch == other.max_batch and\n        self.recheck == other.recheck and\n        self.seed == other.seed and\n        self.max_retries == other.max_retries\n    )\ndef __init__(self, min_batch=attr_dict['min_batch'].default, max_batch=attr_dict['max_batch'].default, recheck=attr_dict['recheck'].default, seed=attr_dict['seed'].default, max_retries=attr_dict['max_retries'].default):\n    _setattr = _cached_setattr_get(self)\n    _setattr('min_batch', min_batch)\n    _setattr('max_batch', max_batch)\n    _setattr('recheck', recheck)\n    _setattr('seed', seed)\n    _setattr('max_retries', max_retries)\n": _60,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.selection == other.selection and\n        self.complexity == other.complexity and\n        self.settings == other.settings and\n        self.batches == other.batches and\n        self.sizes == other.sizes and\n        self.runs == other.runs and\n        self.difficult == other.difficult\n    )\ndef __init__(self, selection, complexity, settings, batches, sizes, runs, difficult=attr_dict['difficult'].default):\n    _setattr = _cached_setattr_get(self)\n    _setattr('selection', __attr_converter_selection(selection))\n    _setattr('complexity', complexity)\n    _setattr('settings', settings)\n    _setattr('batches', batches)\n    _setattr('sizes', sizes)\n    _setattr('runs', __attr_converter_runs(runs))\n    _setattr('difficult', difficult)\n    _setattr('_used', attr_dict['_used'].default)\n    _setattr('_selected', attr_dict['_selected'].default)\n": _61,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.size == other.size and\n        self.why == other.why\n    )\ndef __init__(self, size, why):\n    _setattr = _cached_setattr_get(self)\n    _setattr('size', size)\n    _setattr('why', why)\n": _62,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.number == other.number and\n        self.size == other.size and\n        self.why == other.why and\n        self.kind == other.kind and\n        self.new == other.new and\n        self.recheck == other.recheck and\n        self.unused_after == other.unused_after and\n        self.open_difficult == other.open_difficult\n    )\ndef __init__(self, number, size, why, kind, new, recheck, unused_after, open_difficult):\n    _setattr = _cached_setattr_get(self)\n    _setattr('number', number)\n    _setattr('size', size)\n    _setattr('why', why)\n    _setattr('kind', kind)\n    _setattr('new', new)\n    _setattr('recheck', recheck)\n    _setattr('unused_after', unused_after)\n    _setattr('open_difficult', open_difficult)\n": _63,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.dataset == other.dataset and\n        self.cases == other.cases and\n        self.selection == other.selection and\n        self.limit == other.limit and\n        self.min_batch == other.min_batch and\n        self.max_batch == other.max_batch and\n        self.recheck == other.recheck and\n        self.seed == other.seed and\n        self.max_retries == other.max_retries and\n        self.concurrency == other.concurrency and\n        self.imported_from == other.imported_from and\n        self.name == other.name and\n        self.written == other.written\n    )\ndef __init__(self, dataset, cases, selection, limit, min_batch, max_batch, recheck, seed, max_retries, concurrency, imported_from=attr_dict['imported_from'].default, name=attr_dict['name'].default, written=attr_dict['written'].default):\n    _setattr = _cached_setattr_get(self)\n    _setattr('dataset', dataset)\n    _setattr('cases', __attr_converter_cases(cases))\n    _setattr('selection', __attr_converter_selection(selection))\n    _setattr('limit', limit)\n    _setattr('min_batch', min_batch)\n    _setattr('max_batch', max_batch)\n    _setattr('recheck', recheck)\n    _setattr('seed', seed)\n    _setattr('max_retries', max_retries)\n    _setattr('concurrency', concurrency)\n    _setattr('imported_from', imported_from)\n    _setattr('name', name)\n    _setattr('written', __attr_converter_written(written))\n": _64,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.number == other.number and\n        self.size == other.size and\n        self.why == other.why and\n        self.kind == other.kind and\n        self.new == other.new and\n        self.recheck == other.recheck and\n        self.unused_after == other.unused_after and\n        self.open_difficult == other.open_difficult and\n        self.size_override == other.size_override and\n        self.recheck_override == other.recheck_override and\n        self.seed_override == other.seed_override\n    )\ndef __init__(self, number, size, why, kind, new, recheck, unused_after=attr_dict['unused_after'].default, open_difficult=attr_dict['open_difficult'].default, size_override=attr_dict['size_override'].default, recheck_override=attr_dict['recheck_override'].default, seed_override=attr_dict['seed_override'].default):\n    _setattr = _cached_setattr_get(self)\n    _setattr('number', number)\n    _setattr('size', size)\n    _setattr('why', why)\n    _setattr('kind', kind)\n    _setattr('new', __attr_converter_new(new))\n    _setattr('recheck', __attr_converter_recheck(recheck))\n    _setattr('unused_after', unused_after)\n    _setattr('open_difficult', open_difficult)\n    _setattr('size_override', size_override)\n    _setattr('recheck_override', recheck_override)\n    _setattr('seed_override', seed_override)\n": _65,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.run == other.run and\n        self.batch == other.batch and\n        self.kind == other.kind and\n        self.number == other.number and\n        self.cases == other.cases\n    )\ndef __init__(self, run, batch, kind, number, cases):\n    _setattr = _cached_setattr_get(self)\n    _setattr('run', run)\n    _setattr('batch', batch)\n    _setattr('kind', kind)\n    _setattr('number', number)\n    _setattr('cases', __attr_converter_cases(cases))\n": _66,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.run == other.run and\n        self.verdict == other.verdict and\n        self.wrong == other.wrong and\n        self.llm_calls == other.llm_calls and\n        self.tokens == other.tokens and\n        self.saved_twice == other.saved_twice and\n        self.findings == other.findings and\n        self.note == other.note\n    )\ndef __init__(self, run, verdict, wrong=attr_dict['wrong'].default, llm_calls=attr_dict['llm_calls'].default, tokens=attr_dict['tokens'].default, saved_twice=attr_dict['saved_twice'].default, findings=attr_dict['findings'].default, note=attr_dict['note'].default):\n    _setattr = _cached_setattr_get(self)\n    _setattr('run', run)\n    _setattr('verdict', verdict)\n    _setattr('wrong', __attr_converter_wrong(wrong))\n    _setattr('llm_calls', llm_calls)\n    _setattr('tokens', tokens)\n    _setattr('saved_twice', saved_twice)\n    _setattr('findings', findings)\n    _setattr('note', note)\n": _67,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.run == other.run and\n        self.verdict == other.verdict and\n        self.reason == other.reason and\n        self.wrong == other.wrong and\n        self.llm_calls == other.llm_calls and\n        self.tokens == other.tokens and\n        self.saved_twice == other.saved_twice\n    )\ndef __init__(self, run, verdict, reason, wrong=attr_dict['wrong'].default, llm_calls=attr_dict['llm_calls'].default, tokens=attr_dict['tokens'].default, saved_twice=attr_dict['saved_twice'].default):\n    _setattr = _cached_setattr_get(self)\n    _setattr('run', run)\n    _setattr('verdict', verdict)\n    _setattr('reason', reason)\n    _setattr('wrong', __attr_converter_wrong(wrong))\n    _setattr('llm_calls', llm_calls)\n    _setattr('tokens', tokens)\n    _setattr('saved_twice', saved_twice)\n": _68,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.case == other.case and\n        self.reasons == other.reasons and\n        self.run == other.run and\n        self.note == other.note\n    )\ndef __init__(self, case, reasons, run, note=attr_dict['note'].default):\n    _setattr = _cached_setattr_get(self)\n    _setattr('case', case)\n    _setattr('reasons', __attr_converter_reasons(reasons))\n    _setattr('run', run)\n    _setattr('note', note)\n": _69,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.case == other.case and\n        self.run == other.run and\n        self.note == other.note\n    )\ndef __init__(self, case, run, note=attr_dict['note'].default):\n    _setattr = _cached_setattr_get(self)\n    _setattr('case', case)\n    _setattr('run', run)\n    _setattr('note', note)\n": _70,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.case == other.case and\n        self.run == other.run and\n        self.reason == other.reason\n    )\ndef __init__(self, case, run, reason):\n    _setattr = _cached_setattr_get(self)\n    _setattr('case', case)\n    _setattr('run', run)\n    _setattr('reason', reason)\n": _71,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.run == other.run and\n        self.file == other.file and\n        self.summary == other.summary and\n        self.lines == other.lines\n    )\ndef __init__(self, run, file, summary, lines=attr_dict['lines'].default):\n    _setattr = _cached_setattr_get(self)\n    _setattr('run', run)\n    _setattr('file', file)\n    _setattr('summary', summary)\n    _setattr('lines', lines)\n": _72,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.batch == other.batch and\n        self.nodes == other.nodes\n    )\ndef __init__(self, batch, nodes):\n    _setattr = _cached_setattr_get(self)\n    _setattr('batch', batch)\n    _setattr('nodes', nodes)\n": _73,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.run == other.run and\n        self.model == other.model and\n        self.calls == other.calls and\n        self.input_tokens == other.input_tokens and\n        self.output_tokens == other.output_tokens\n    )\ndef __init__(self, run, model, calls, input_tokens, output_tokens):\n    _setattr = _cached_setattr_get(self)\n    _setattr('run', run)\n    _setattr('model', model)\n    _setattr('calls', calls)\n    _setattr('input_tokens', input_tokens)\n    _setattr('output_tokens', output_tokens)\n": _74,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.folder == other.folder and\n        self.log == other.log and\n        self.events == other.events and\n        self.unreadable == other.unreadable\n    )\ndef __init__(self, folder, log, events=attr_dict['events'].default, unreadable=attr_dict['unreadable'].default):\n    _setattr = _cached_setattr_get(self)\n    _setattr('folder', folder)\n    _setattr('log', log)\n    _setattr('events', __attr_converter_events(events))\n    _setattr('unreadable', unreadable)\n": _75,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.kind == other.kind and\n        self.batch == other.batch and\n        self.half == other.half and\n        self.standing == other.standing\n    )\ndef __init__(self, kind, batch=attr_dict['batch'].default, half=attr_dict['half'].default, standing=attr_dict['standing'].default):\n    _setattr = _cached_setattr_get(self)\n    _setattr('kind', kind)\n    _setattr('batch', batch)\n    _setattr('half', half)\n    _setattr('standing', standing)\n": _76,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.folder == other.folder and\n        self.log_options == other.log_options\n    )\ndef __init__(self, folder=attr_dict['folder'].default, log_options=attr_dict['log_options'].default):\n    _setattr = _cached_setattr_get(self)\n    _setattr('folder', folder)\n    _setattr('log_options', log_options)\n": _77,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.words == other.words and\n        self.last == other.last\n    )\ndef __init__(self, words, last=attr_dict['last'].default):\n    _setattr = _cached_setattr_get(self)\n    _setattr('words', words)\n    _setattr('last', last)\n": _78,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.dataset == other.dataset and\n        self.cases == other.cases and\n        self.limit == other.limit and\n        self.min_batch == other.min_batch and\n        self.max_batch == other.max_batch and\n        self.recheck == other.recheck and\n        self.seed == other.seed and\n        self.max_retries == other.max_retries and\n        self.concurrency == other.concurrency and\n        self.name == other.name and\n        self.typed == other.typed\n    )\ndef __init__(self, dataset, cases, limit=attr_dict['limit'].default, min_batch=attr_dict['min_batch'].default, max_batch=attr_dict['max_batch'].default, recheck=attr_dict['recheck'].default, seed=attr_dict['seed'].default, max_retries=attr_dict['max_retries'].default, concurrency=attr_dict['concurrency'].default, name=attr_dict['name'].default, typed=attr_dict['typed'].default):\n    _setattr = _cached_setattr_get(self)\n    _setattr('dataset', dataset)\n    _setattr('cases', __attr_converter_cases(cases))\n    _setattr('limit', limit)\n    _setattr('min_batch', min_batch)\n    _setattr('max_batch', max_batch)\n    _setattr('recheck', recheck)\n    _setattr('seed', seed)\n    _setattr('max_retries', max_retries)\n    _setattr('concurrency', concurrency)\n    _setattr('name', name)\n    _setattr('typed', typed)\n": _79,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.size == other.size and\n        self.recheck == other.recheck and\n        self.seed == other.seed and\n        self.out == other.out\n    )\ndef __init__(self, size=attr_dict['size'].default, recheck=attr_dict['recheck'].default, seed=attr_dict['seed'].default, out=attr_dict['out'].default):\n    _setattr = _cached_setattr_get(self)\n    _setattr('size', size)\n    _setattr('recheck', recheck)\n    _setattr('seed', seed)\n    _setattr('out', out)\n": _80,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.batch == other.batch and\n        self.kind == other.kind\n    )\ndef __init__(self, batch, kind):\n    _setattr = _cached_setattr_get(self)\n    _setattr('batch', batch)\n    _setattr('kind', kind)\n": _81,
    'def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return True\ndef __init__(self, ):\n    _setattr = _cached_setattr_get(self)\n': _82,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.number == other.number and\n        self.size == other.size and\n        self.kind == other.kind\n    )\ndef __init__(self, number, size, kind):\n    _setattr = _cached_setattr_get(self)\n    _setattr('number', number)\n    _setattr('size', size)\n    _setattr('kind', kind)\n": _83,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.sound == other.sound and\n        self.summary == other.summary and\n        self.problems == other.problems\n    )\ndef __init__(self, sound, summary, problems=attr_dict['problems'].default):\n    _setattr = _cached_setattr_get(self)\n    _setattr('sound', sound)\n    _setattr('summary', summary)\n    _setattr('problems', problems)\n": _84,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.name == other.name and\n        self.promise == other.promise and\n        self.holds == other.holds and\n        self.evidence == other.evidence\n    )\ndef __init__(self, name, promise, holds, evidence):\n    _setattr = _cached_setattr_get(self)\n    _setattr('name', name)\n    _setattr('promise', promise)\n    _setattr('holds', holds)\n    _setattr('evidence', evidence)\n": _85,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.first_at == other.first_at and\n        self.last_at == other.last_at and\n        self.duration == other.duration and\n        self.events == other.events and\n        self.batches == other.batches and\n        self.runs == other.runs and\n        self.verdicts == other.verdicts and\n        self.llm_calls == other.llm_calls and\n        self.tokens == other.tokens and\n        self.without_usage == other.without_usage\n    )\ndef __init__(self, first_at, last_at, duration, events, batches, runs, verdicts, llm_calls, tokens, without_usage=attr_dict['without_usage'].default):\n    _setattr = _cached_setattr_get(self)\n    _setattr('first_at', first_at)\n    _setattr('last_at', last_at)\n    _setattr('duration', duration)\n    _setattr('events', events)\n    _setattr('batches', batches)\n    _setattr('runs', runs)\n    _setattr('verdicts', verdicts)\n    _setattr('llm_calls', llm_calls)\n    _setattr('tokens', tokens)\n    _setattr('without_usage', without_usage)\n": _86,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.checks == other.checks and\n        self.timeline == other.timeline\n    )\ndef __init__(self, checks, timeline):\n    _setattr = _cached_setattr_get(self)\n    _setattr('checks', checks)\n    _setattr('timeline', timeline)\n": _87,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.calls == other.calls and\n        self.input_tokens == other.input_tokens and\n        self.output_tokens == other.output_tokens\n    )\ndef __init__(self, calls=attr_dict['calls'].default, input_tokens=attr_dict['input_tokens'].default, output_tokens=attr_dict['output_tokens'].default):\n    _setattr = _cached_setattr_get(self)\n    _setattr('calls', calls)\n    _setattr('input_tokens', input_tokens)\n    _setattr('output_tokens', output_tokens)\n": _88,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.step == other.step and\n        self.words == other.words and\n        self.command == other.command and\n        self.optional == other.optional\n    )\ndef __init__(self, step, words, command, optional=attr_dict['optional'].default):\n    _setattr = _cached_setattr_get(self)\n    _setattr('step', step)\n    _setattr('words', words)\n    _setattr('command', command)\n    _setattr('optional', optional)\n": _89,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.case == other.case and\n        self.reasons == other.reasons and\n        self.status == other.status and\n        self.retries == other.retries and\n        self.added == other.added and\n        self.fixed == other.fixed and\n        self.notes == other.notes\n    )\ndef __init__(self, case, reasons, status, retries, added, fixed, notes):\n    _setattr = _cached_setattr_get(self)\n    _setattr('case', case)\n    _setattr('reasons', reasons)\n    _setattr('status', status)\n    _setattr('retries', retries)\n    _setattr('added', added)\n    _setattr('fixed', fixed)\n    _setattr('notes', notes)\n": _90,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.text == other.text and\n        self.adopted == other.adopted and\n        self.restored == other.restored\n    )\ndef __init__(self, text, adopted=attr_dict['adopted'].default, restored=attr_dict['restored'].default):\n    _setattr = _cached_setattr_get(self)\n    _setattr('text', text)\n    _setattr('adopted', adopted)\n    _setattr('restored', restored)\n": _91,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.spans == other.spans and\n        self.headings == other.headings\n    )\ndef __init__(self, spans, headings):\n    _setattr = _cached_setattr_get(self)\n    _setattr('spans', spans)\n    _setattr('headings', headings)\n": _92,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.name == other.name and\n        self.selection == other.selection and\n        self.cases_used == other.cases_used and\n        self.batches_built == other.batches_built and\n        self.batches_total == other.batches_total and\n        self.difficult == other.difficult and\n        self.difficult_counts == other.difficult_counts and\n        self.verdicts == other.verdicts and\n        self.runs == other.runs and\n        self.tokens == other.tokens and\n        self.calls == other.calls and\n        self.reporting == other.reporting and\n        self.step == other.step and\n        self.closed == other.closed\n    )\ndef __init__(self, name, selection, cases_used, batches_built, batches_total, difficult, difficult_counts, verdicts, runs, tokens, calls, reporting, step, closed):\n    _setattr = _cached_setattr_get(self)\n    _setattr('name', name)\n    _setattr('selection', selection)\n    _setattr('cases_used', cases_used)\n    _setattr('batches_built', batches_built)\n    _setattr('batches_total', batches_total)\n    _setattr('difficult', difficult)\n    _setattr('difficult_counts', difficult_counts)\n    _setattr('verdicts', verdicts)\n    _setattr('runs', runs)\n    _setattr('tokens', tokens)\n    _setattr('calls', calls)\n    _setattr('reporting', reporting)\n    _setattr('step', step)\n    _setattr('closed', closed)\n": _93,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.name == other.name and\n        self.cases == other.cases and\n        self.verdict == other.verdict and\n        self.plan == other.plan\n    )\ndef __init__(self, name, cases, verdict, plan):\n    _setattr = _cached_setattr_get(self)\n    _setattr('name', name)\n    _setattr('cases', cases)\n    _setattr('verdict', verdict)\n    _setattr('plan', plan)\n": _94,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.folder == other.folder and\n        self.config == other.config and\n        self.dataset == other.dataset and\n        self.selection == other.selection and\n        self.difficult == other.difficult and\n        self.runs == other.runs\n    )\ndef __init__(self, folder, config, dataset, selection, difficult, runs):\n    _setattr = _cached_setattr_get(self)\n    _setattr('folder', folder)\n    _setattr('config', config)\n    _setattr('dataset', dataset)\n    _setattr('selection', selection)\n    _setattr('difficult', difficult)\n    _setattr('runs', runs)\n": _95,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.url == other.url and\n        self.log == other.log\n    )\ndef __init__(self, url=attr_dict['url'].default, log=attr_dict['log'].default):\n    _setattr = _cached_setattr_get(self)\n    _setattr('url', url)\n    _setattr('log', log)\n": _96,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.state == other.state and\n        self.newer == other.newer\n    )\ndef __init__(self, state, newer=attr_dict['newer'].default):\n    _setattr = _cached_setattr_get(self)\n    _setattr('state', state)\n    _setattr('newer', newer)\n": _97,
    "def __eq__(self, other):\n    if other.__class__ is not self.__class__:\n        return NotImplemented\n    return  (\n        self.log == other.log and\n        self.decider == other.decider and\n        self.fields == other.fields and\n        self.screen == other.screen and\n        self.ended == other.ended and\n        self.clock == other.clock\n    )\ndef __init__(self, log, decider, fields, screen, ended, clock=attr_dict['clock'].default):\n    _setattr = _cached_setattr_get(self)\n    _setattr('log', log)\n    _setattr('decider', decider)\n    _setattr('fields', fields)\n    _setattr('screen', screen)\n    _setattr('ended', ended)\n    _setattr('clock', clock)\n": _98,
}
