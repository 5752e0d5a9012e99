/**
 * Validation patterns and their exact messages (spec 000 §5, 002 §5). Shared by the console's forms
 * and the server's request schemas, so both sides say the same thing.
 */
export const SPECIAL_CHARACTERS = '@#$!%*?&()[]{}-_+=|/\\:;"<>';

export const messages = {
  password: 'Password should contain minimum 8 characters maximum 32, at least two uppercase letters, two lowercase letters, one number and one special character (@#$!%*?&()[]{}-_+=|/\\:;"<>?)',
  resetPassword: 'Password should contain minimum 8 characters maximum 32, at least two uppercase letters, two lowercase letters, one number and one special character',
  userType: 'Please select a type',
  name: 'Name can only have alphanumeric characters and should be at least 3 characters long',
  username: "Username can only have alphanumeric characters with '_' and should be at least 3 characters long",
  email: 'Please enter a valid email',
  contact: 'Please enter a valid contact number',
  role: 'Please select a role',
  roleName: 'Role name can only have alphanumeric characters and should be at least 3 characters long',
  userLevel: 'Please select a user level',
  permissions: 'Please select at least one permission',
  oldPassword: 'Please enter the old-password',
  newPassword: 'Please enter the new-password',
  confirmPassword: 'Please enter password confirmation',
  passwordsMismatch: 'Passwords does not match',
  defaultInvalid: 'This field is invalid',
  searchText: 'Search text can have at most 30 characters',
} as const;

export const patterns = {
  /** 3 or more letters/digits, optional single spaces between words. */
  name: /^(?=(?:.*[A-Za-z0-9]){3})[A-Za-z0-9]+(?: [A-Za-z0-9]+)*$/,
  /** At least 3 word characters. */
  username: /^\w{3,}$/,
  email: /^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$/,
  /** The user form's contact: exactly 10 digits. */
  contact10: /^\d{10}$/,
  /** The shared contact pattern: 4 to 32 digits. */
  contact: /^\d{4,32}$/,
  address: /^[A-Za-z0-9,./\- ]{3,}/,
  website: /^(https?:\/\/)[\w.-]+(?:\.[\w.-]+)+[\w\-._~:/?#[\]@!$&'()*+,;=%]*$/,
  emptyOrWebsite: /^$|^(https?:\/\/)[\w.-]+(?:\.[\w.-]+)+[\w\-._~:/?#[\]@!$&'()*+,;=%]*$/,
  singleWord: /^\S+$/,
  multiWord: /^\S+(?: \S+)*$/,
  decimal: /^\d+(?:\.\d+)?$/,
  /**
   * The password rule: at least one digit, two lowercase, two uppercase and one special character,
   * 8 to 16 characters in all.
   */
  password: /^(?=.*\d)(?=(?:.*[a-z]){2})(?=(?:.*[A-Z]){2})(?=.*[@#$!%*?&()[\]{}\-_+=|/\\:;"<>]).{8,16}$/,
} as const;

export const limits = {
  searchText: 30,
  name: 100,
  username: 100,
  email: 100,
  resetPassword: 30,
  fetchCountAll: 99999999,
} as const;

export const fetchCountOptions = [
  { value: 10, label: '10' },
  { value: 25, label: '25' },
  { value: 50, label: '50' },
  { value: 100, label: '100' },
  { value: 99999999, label: 'All' },
] as const;

/** Messages for the dependent second select of the user form, by user type. */
export function branchMessage(userType: string): string {
  switch (userType) {
    case 'EXCHANGEHOUSE':
      return 'Please select an exchange house';
    case 'DFMERCHANT':
      return 'Please select a merchant';
    case 'DFBANK':
    case 'IPGBANK':
      return 'Please select a bank';
    default:
      return 'Please select a branch';
  }
}

export function isValidPassword(value: string): boolean {
  return patterns.password.test(value);
}
