/** Word lists for synthetic but plausible engineering names. Plain ASCII: no COPY escaping. */
export const SUBJECTS = [
  'gearbox', 'housing', 'shaft', 'bearing', 'flange', 'bracket', 'cover', 'impeller', 'rotor', 'stator',
  'valve', 'pump', 'piston', 'cylinder', 'manifold', 'coupling', 'pulley', 'sprocket', 'axle', 'hub',
  'frame', 'panel', 'hinge', 'latch', 'spring', 'damper', 'seal', 'gasket', 'nozzle', 'fan',
  'motor', 'sensor', 'harness', 'connector', 'enclosure', 'heat sink', 'clamp', 'lever', 'cam', 'gear',
  'spindle', 'chassis', 'rail', 'carriage', 'actuator', 'filter', 'reservoir', 'bushing', 'spacer', 'plate',
];

export const QUALIFIERS = [
  'main', 'upper', 'lower', 'front', 'rear', 'left', 'right', 'inner', 'outer', 'drive',
  'output', 'input', 'auxiliary', 'primary', 'secondary', 'compact', 'heavy duty', 'lightweight', 'sealed', 'modular',
];

export const DOC_KINDS = [
  'specification', 'test plan', 'test report', 'assembly instruction', 'maintenance manual', 'datasheet',
  'design review', 'risk analysis', 'calculation', 'work instruction', 'change request', 'supplier agreement',
];

export const STANDARD_PARTS = [
  'hex bolt', 'hex nut', 'washer', 'socket screw', 'dowel pin', 'circlip', 'O-ring', 'rivet', 'cable tie', 'grub screw',
];

export const SIZES = ['M3', 'M4', 'M5', 'M6', 'M8', 'M10', 'M12', 'M16'];

export const MATERIALS = [
  'S235JR', 'S355J2', '42CrMo4', 'C45E', 'X5CrNi18-10', 'AlSi10Mg', 'EN AW-6082', 'PA66-GF30', 'POM-C', 'CuZn39Pb3',
];

export const LANGUAGES = ['en', 'de', 'fr', 'it', 'es'];
export const DEPARTMENTS = ['engineering', 'quality', 'manufacturing', 'service', 'purchasing'];
export const CAD_APPS = ['Creo', 'SolidWorks', 'NX', 'CATIA'];
export const UNITS = ['mm', 'in'];

export const FIRST_NAMES = [
  'Anna', 'Ben', 'Clara', 'David', 'Eva', 'Felix', 'Greta', 'Hugo', 'Ida', 'Jonas', 'Karla', 'Leon', 'Mia', 'Noah',
  'Olga', 'Paul', 'Rosa', 'Sven', 'Tina', 'Uwe', 'Vera', 'Walter', 'Xenia', 'Yusuf', 'Zoe',
];

export const LAST_NAMES = [
  'Adler', 'Becker', 'Costa', 'Dietrich', 'Engel', 'Fischer', 'Graf', 'Hahn', 'Iversen', 'Jung', 'Keller', 'Lang',
  'Meyer', 'Novak', 'Olsen', 'Peters', 'Quast', 'Richter', 'Schulz', 'Traore', 'Ulrich', 'Vogel', 'Weber', 'Zimmer',
];

export const PRODUCT_NAMES = [
  'Drive Unit', 'Conveyor', 'Packaging Line', 'Robot Arm', 'Pump Station', 'Wind Gearbox', 'Press', 'Mixer',
  'Cooling Tower', 'Lift Module', 'Sorting Cell', 'Test Bench',
];

export const LIBRARY_NAMES = ['Standard Parts', 'Purchased Parts', 'Electrical Components', 'Templates'];
export const PROJECT_NAMES = ['Cost Down', 'Next Gen', 'Customer Variant', 'Retrofit', 'Secret Project'];

/** Lines that synthetic text files are made of. */
export const FILE_LINES = [
  'Scope: this document applies to the assembly and its sub-assemblies.',
  'All dimensions in millimetres unless stated otherwise.',
  'Tolerances according to ISO 2768-mK.',
  'Surface finish Ra 3.2 on all machined faces.',
  'Torque all fasteners to the values in table 4.',
  'Inspect bearing seats for burrs before assembly.',
  'Material certificate 3.1 required for all structural parts.',
  'Operating temperature -20 C to +60 C.',
  'Verify the clearance with a feeler gauge after assembly.',
  'Apply thread locker to screws marked with an asterisk.',
  'Check: rated load 12 kN, safety factor 2.5.',
  'Paint RAL 7035, coating thickness 80 um minimum.',
  'Revision history is kept in the PDM system.',
  'Approved for production after design review.',
  'Deviations require a change request.',
  'Lubricate with grease class NLGI 2.',
];
