import { C, clause, I, judged, split, type Rule } from './rule.js';
import { userChangeRules } from './user-change-rules.js';

const USERS = C('Users');
const PRECISE = C('Precise rules / Users, orders, roles');

/** Users: creation, validation, uniqueness, replace and update, delete, the user state machine. */
export const userRules: Rule[] = [
  split(
    'users.create.201-location',
    'POST /users: 201, body UserDto, header Location with the path of the new user',
    I('Endpoints / Users'),
    [
      clause(
        'status-201',
        'a create answers 201',
        ['status_code_conformance'],
        ['create-answers-200'],
      ),
      clause(
        'location-header',
        'the 201 carries a Location header',
        ['location_resolves'],
        ['location-dropped'],
      ),
      clause(
        'location-reads-user',
        'a GET of the Location reads the new user',
        ['ensure_resource_availability'],
        ['new-user-not-readable'],
      ),
      clause(
        'location-path',
        "the Location is the path of the new user: the GET path ending in the body's id",
        ['resource_identity'],
        ['created-location-next-id'],
      ),
      clause(
        'body-holds-sent',
        'the 201 body is the new user: it holds the name, email and age sent',
        ['resource_identity'],
        ['created-name-of-previous-user'],
      ),
    ],
  ),
  split(
    'users.create.validation',
    'name 1-100 characters, email (format email), optional age (minimum 18); unknown properties: 400',
    USERS,
    [
      clause(
        'required',
        'name and email are required: a body without one is 400',
        ['negative_data_rejection'],
        ['missing-name-defaulted', 'invalid-data-accepted'],
      ),
      clause(
        'name-min-length',
        'an empty name is 400',
        ['negative_data_rejection'],
        ['empty-name-accepted'],
      ),
      clause(
        'name-max-length',
        'a name over 100 characters is 400, not stored cut',
        ['negative_data_rejection'],
        ['long-name-truncated'],
      ),
      clause(
        'email-format',
        'an email that is not one is 400',
        ['negative_data_rejection'],
        ['malformed-email-accepted'],
      ),
      clause(
        'age-minimum',
        'an age under 18 is 400',
        ['negative_data_rejection'],
        ['under-age-accepted'],
      ),
      clause(
        'age-integer',
        'a fractional age is 400, not stored truncated',
        ['negative_data_rejection'],
        ['fractional-age-truncated'],
      ),
      clause(
        'unknown-properties',
        'a property the schema does not have is 400, not dropped',
        ['negative_data_rejection'],
        ['unknown-property-dropped'],
      ),
    ],
  ),
  judged(
    'users.create.valid-accepted',
    'a name of 1-100 Unicode code points, stored exactly as sent, is accepted',
    C('Precise rules / Requests'),
    ['positive_data_acceptance'],
    ['long-names-rejected'],
  ),
  judged(
    'users.create.age-optional',
    'age is optional (null when not sent)',
    USERS,
    ['not_a_server_error', 'positive_data_acceptance'],
    ['create-without-age-crashes'],
  ),
  judged(
    'users.null-name-email',
    'name: null or email: null is 400',
    C('Precise rules / Requests'),
    ['negative_data_rejection'],
    ['null-name-as-absent'],
  ),
  judged(
    'users.lone-surrogate',
    'lone surrogates in names are 400',
    C('Precise rules / Requests'),
    ['negative_data_rejection'],
    ['lone-surrogate-replaced'],
  ),
  judged(
    'users.email.max-length',
    'emails: at most 254 characters',
    C('Precise rules / Requests'),
    ['negative_data_rejection'],
    ['long-email-truncated'],
  ),
  judged(
    'users.stored-as-sent',
    'names and emails are stored exactly as sent (emails compared lower-cased)',
    C('Precise rules / Requests'),
    ['fuzz_read_back'],
    ['names-title-cased'],
    'only the fuzz phase compares what was sent with what reads back (location_resolves compares the GET with the 201 body), so the fault runs with --fuzz',
  ),
  split(
    'users.dto.fields',
    'UserDto: id, name, email, age (or null: always present), status, createdAt, updatedAt; nothing else',
    USERS,
    [
      clause(
        'required-fields',
        'id, name, email, status, createdAt and updatedAt are present',
        ['response_schema_conformance'],
        ['createdAt-missing'],
      ),
      clause(
        'age-always-present',
        'age is present, null when unknown (never left out)',
        ['response_schema_conformance'],
        ['null-age-omitted'],
      ),
      clause(
        'status-values',
        'status is one of ACTIVE, INACTIVE, BLOCKED, as written',
        ['response_schema_conformance'],
        ['status-lower-cased'],
      ),
      clause(
        'timestamps',
        'createdAt and updatedAt are RFC 3339 date-time strings',
        ['response_schema_conformance'],
        ['timestamps-as-epoch'],
      ),
      clause(
        'nothing-else',
        'no other field',
        ['response_schema_conformance'],
        ['password-hash-leaked'],
      ),
    ],
  ),
  split(
    'users.email.unique',
    'emails are unique, compared case-insensitively: 409 on a clash (create, replace, update)',
    USERS,
    [
      clause(
        'create-409',
        'a create with an email another user holds: 409',
        ['unique_fields'],
        ['duplicate-email-422'],
      ),
      clause(
        'case-insensitive',
        'an email in another letter case is the same email',
        ['unique_fields'],
        ['duplicate-email-other-case'],
      ),
      clause(
        'replace-409',
        "a PUT giving a user another user's email: 409",
        ['unique_fields'],
        ['duplicate-email-on-put-accepted'],
      ),
      clause(
        'update-409',
        "a PATCH giving a user another user's email: 409",
        ['unique_fields'],
        ['duplicate-email-on-patch-accepted'],
      ),
    ],
  ),
  judged(
    'users.create.starts-inactive',
    'a new user starts INACTIVE',
    USERS,
    ['state_transitions'],
    ['new-user-active'],
  ),
  judged(
    'users.create.holds-user',
    'every new user holds USER',
    C('Roles'),
    ['initial_items'],
    ['new-user-without-role'],
  ),
  ...userChangeRules,
];
